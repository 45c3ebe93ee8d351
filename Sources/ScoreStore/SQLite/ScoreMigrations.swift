import GRDB

/// Schema history (SQLite dialect; `PostgresMigrations` is the same history for PostgreSQL).
/// Append new migrations to both; never edit a shipped one.
enum ScoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(ScoreSchema.performancesAndLines) { db in
            try db.create(table: "performance") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("songId", .text).notNull().indexed()
                t.column("songTitle", .text).notNull()
                t.column("singer", .text).notNull().indexed()
                t.column("part", .integer).notNull()
                t.column("difficulty", .text).notNull()
                t.column("mode", .text).notNull()
                t.column("keyShift", .integer).notNull()
                t.column("tempo", .double).notNull()
                t.column("basis", .text).notNull()
                t.column("total", .integer).notNull()
                t.column("startedAt", .datetime).notNull()
                t.column("finishedAt", .datetime)
                t.column("status", .text).notNull()
            }
            try db.create(table: "lineResult") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("performance", onDelete: .cascade).notNull()
                t.column("lineIndex", .integer).notNull()
                t.column("text", .text).notNull()
                t.column("score", .double).notNull()
                t.column("maxScore", .double).notNull()
                t.column("bonus", .double).notNull()
                t.column("perfection", .double).notNull()
                t.column("rating", .text).notNull()
                t.column("notesJSON", .text).notNull()
                t.uniqueKey(["performanceId", "lineIndex"])
            }
        }
        migrator.registerMigration(ScoreSchema.micLost) { db in
            try db.alter(table: "lineResult") { t in
                t.add(column: "micLost", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration(ScoreSchema.roomsAndRunKeys) { db in
            try db.alter(table: "performance") { t in
                t.add(column: "room", .text)
                t.add(column: "runKey", .text)
            }
            try db.create(index: "performance_runKey", on: "performance", columns: ["runKey"], unique: true)
            try db.create(index: "performance_room", on: "performance", columns: ["room"])
        }
        migrator.registerMigration(ScoreSchema.venueRooms) { db in
            try db.create(table: "venueRoom") { t in
                t.primaryKey("name", .text)
                t.column("joinURL", .text).notNull()
                t.column("nowPlaying", .text)
                t.column("busy", .boolean).notNull()
                t.column("heartbeatAt", .datetime).notNull()
            }
        }
        migrator.registerMigration(ScoreSchema.boardIndex) { db in
            // The boards read `status = 'complete' ORDER BY total DESC, finishedAt`: walked in order, no sort.
            try db.execute(sql: "CREATE INDEX performance_board ON performance (status, total DESC, finishedAt, id)")
        }
        return migrator
    }
}
