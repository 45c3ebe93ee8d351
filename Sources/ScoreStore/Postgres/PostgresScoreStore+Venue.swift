import Foundation

/// The venue's room list in the shared PostgreSQL: every room's heartbeat row.
extension PostgresScoreStore {
    public func announce(_ presence: RoomPresence) async throws(ScoreStoreError) {
        try run { connection in
            try connection.execute("""
                INSERT INTO venueRoom (name, joinURL, nowPlaying, busy, heartbeatAt)
                VALUES (\(presence.name), \(presence.joinURL), \(presence.nowPlaying), \(presence.busy), \(presence.heartbeatAt))
                ON CONFLICT (name) DO UPDATE SET joinURL = EXCLUDED.joinURL, nowPlaying = EXCLUDED.nowPlaying,
                    busy = EXCLUDED.busy, heartbeatAt = EXCLUDED.heartbeatAt
                """)
        }
    }

    public func rooms(seenSince: Date) async throws(ScoreStoreError) -> [RoomPresence] {
        try run { connection in
            try connection.execute("""
                SELECT name, joinURL, nowPlaying, busy, heartbeatAt FROM venueRoom
                WHERE heartbeatAt >= \(seenSince) ORDER BY name
                """).map { r in
                RoomPresence(
                    name: try r.decode("name", as: String.self), joinURL: try r.decode("joinurl", as: String.self),
                    nowPlaying: try r.decodeIfPresent("nowplaying", as: String.self), busy: try r.decode("busy", as: Bool.self),
                    heartbeatAt: try r.decode("heartbeatat", as: Date.self))
            }
        }
    }
}
