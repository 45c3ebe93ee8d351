import Foundation
import GRDB

/// The venue's room list in a SQLite store: a room on its own sees itself (a venue of one).
extension SQLiteScoreStore {
    public func announce(_ presence: RoomPresence) throws(ScoreStoreError) {
        try write { db in try presence.upsert(db) }
    }

    nonisolated public func rooms(seenSince: Date) throws(ScoreStoreError) -> [RoomPresence] {
        try read { db in
            try RoomPresence.filter(Column("heartbeatAt") >= seenSince).order(Column("name")).fetchAll(db)
        }
    }
}
