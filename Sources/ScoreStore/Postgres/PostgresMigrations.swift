
/// The schema history of `ScoreMigrations` in PostgreSQL's dialect, under the same names (kept in
/// `karaoke_migrations`). Rooms that start together take an advisory lock, so one of them migrates
/// and the others find it done. Column names are unquoted, so PostgreSQL folds them to lower case.
enum PostgresMigrations {
    static let history: [(name: String, statements: [String])] = [
        (ScoreSchema.performancesAndLines, [
            """
            CREATE TABLE performance (
                id BIGSERIAL PRIMARY KEY, songId TEXT NOT NULL, songTitle TEXT NOT NULL, singer TEXT NOT NULL,
                part BIGINT NOT NULL, difficulty TEXT NOT NULL, mode TEXT NOT NULL, keyShift BIGINT NOT NULL,
                tempo DOUBLE PRECISION NOT NULL, basis TEXT NOT NULL, total BIGINT NOT NULL,
                startedAt TIMESTAMPTZ NOT NULL, finishedAt TIMESTAMPTZ, status TEXT NOT NULL)
            """,
            "CREATE INDEX performance_on_songId ON performance (songId)",
            "CREATE INDEX performance_on_singer ON performance (singer)",
            """
            CREATE TABLE lineResult (
                id BIGSERIAL PRIMARY KEY,
                performanceId BIGINT NOT NULL REFERENCES performance (id) ON DELETE CASCADE,
                lineIndex BIGINT NOT NULL, text TEXT NOT NULL, score DOUBLE PRECISION NOT NULL,
                maxScore DOUBLE PRECISION NOT NULL, bonus DOUBLE PRECISION NOT NULL,
                perfection DOUBLE PRECISION NOT NULL, rating TEXT NOT NULL, notesJSON TEXT NOT NULL,
                UNIQUE (performanceId, lineIndex))
            """,
        ]),
        (ScoreSchema.micLost, [
            "ALTER TABLE lineResult ADD COLUMN micLost BOOLEAN NOT NULL DEFAULT FALSE",
        ]),
        (ScoreSchema.roomsAndRunKeys, [
            "ALTER TABLE performance ADD COLUMN room TEXT, ADD COLUMN runKey TEXT",
            "CREATE UNIQUE INDEX performance_runKey ON performance (runKey)",
            "CREATE INDEX performance_room ON performance (room)",
        ]),
        (ScoreSchema.venueRooms, [
            """
            CREATE TABLE venueRoom (name TEXT PRIMARY KEY, joinURL TEXT NOT NULL, nowPlaying TEXT,
                                    busy BOOLEAN NOT NULL, heartbeatAt TIMESTAMPTZ NOT NULL)
            """,
        ]),
        (ScoreSchema.boardIndex, [
            // The venue reads `status = 'complete' ORDER BY total DESC, finishedAt, id LIMIT 500` per
            // room every 5 s: an index scan that stops after 500 rows instead of sorting every run.
            "CREATE INDEX performance_board ON performance (status, total DESC, finishedAt, id)",
        ]),
    ]

    /// Makes `schema` the connection's search path (creating it) and applies what is missing.
    static func prepare(_ connection: PostgresConnection, schema: String) throws {
        try connection.transaction { connection in
            // Under the lock, so two rooms creating the same new schema do not collide.
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('karaoke-migrations'))")
            // `schema` is checked to be a plain lower-case identifier (PostgresStoreURL).
            try connection.execute(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"))
            // A plain SET outlives the transaction (SET LOCAL would not).
            try connection.execute(PostgresQuery(unsafeSQL: "SET search_path TO \(schema)"))
            try connection.execute("CREATE TABLE IF NOT EXISTS karaoke_migrations (identifier TEXT PRIMARY KEY)")
            let applied = Set(try connection.execute("SELECT identifier FROM karaoke_migrations").map {
                try $0.decode("identifier", as: String.self)
            })
            for migration in history where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try connection.execute(PostgresQuery(unsafeSQL: statement))
                }
                try connection.execute("INSERT INTO karaoke_migrations (identifier) VALUES (\(migration.name))")
            }
        }
    }
}
