import Foundation
import PostgresNIO

/// The venue's room list in the shared PostgreSQL: every room's heartbeat row.
extension PostgresScoreStore {
    public func announce(_ presence: RoomPresence) async throws(ScoreStoreError) {
        try await run { connection in
            try await connection.query("""
                INSERT INTO venueRoom (name, joinURL, nowPlaying, busy, heartbeatAt)
                VALUES (\(presence.name), \(presence.joinURL), \(presence.nowPlaying), \(presence.busy), \(presence.heartbeatAt))
                ON CONFLICT (name) DO UPDATE SET joinURL = EXCLUDED.joinURL, nowPlaying = EXCLUDED.nowPlaying,
                    busy = EXCLUDED.busy, heartbeatAt = EXCLUDED.heartbeatAt
                """, logger: logger)
        }
    }

    public func rooms(seenSince: Date) async throws(ScoreStoreError) -> [RoomPresence] {
        try await run { connection in
            var rooms: [RoomPresence] = []
            for try await row in try await connection.query("""
                SELECT name, joinURL, nowPlaying, busy, heartbeatAt FROM venueRoom
                WHERE heartbeatAt >= \(seenSince) ORDER BY name
                """, logger: logger) {
                let r = row.makeRandomAccess()
                rooms.append(RoomPresence(
                    name: try r["name"].decode(String.self), joinURL: try r["joinurl"].decode(String.self),
                    nowPlaying: try r["nowplaying"].decode(String?.self), busy: try r["busy"].decode(Bool.self),
                    heartbeatAt: try r["heartbeatat"].decode(Date.self)))
            }
            return rooms
        }
    }
}
