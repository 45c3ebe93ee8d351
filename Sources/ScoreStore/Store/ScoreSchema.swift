/// The migration names both dialects share (`ScoreMigrations` for SQLite, `PostgresMigrations`),
/// so one database's history reads the same in either.
enum ScoreSchema {
    static let performancesAndLines = "v1: performances and line results"
    static let micLost = "v2: lines sung while the microphone was lost"
    static let roomsAndRunKeys = "v3: the room of each performance, and a key that makes a retried begin idempotent"
    static let venueRooms = "v4: the rooms of a venue and their heartbeat"
    static let boardIndex = "v5: an index for the best complete runs (the venue's boards every 5 s per room)"
}
