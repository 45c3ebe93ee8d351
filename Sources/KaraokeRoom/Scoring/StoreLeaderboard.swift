import Foundation
import RoomProtocol
import ScoreStore

/// The room's leaderboard, read from the score store (best complete performances first).
public struct StoreLeaderboard: RoomLeaderboard {
    public let store: any ScoreStore
    public var limit: Int

    public init(store: any ScoreStore, limit: Int = 10) {
        self.store = store
        self.limit = limit
    }

    /// A database problem throws (the room tells the hosts and the page that the board is unknown).
    public func leaderboard(songId: String?) async throws -> [LeaderboardEntryPayload] {
        // Runs just finished are still queued for the store: the board must include them.
        await store.writeQueue.flush(timeout: 3)
        let formatter = ISO8601DateFormatter()
        let rows = try await store.leaderboard(songId: songId, difficulty: nil, since: nil, limit: limit)
        return rows.map { row in
            LeaderboardEntryPayload(
                songId: row.songId, songTitle: row.songTitle, singer: row.singer, score: Double(row.total),
                date: formatter.string(from: row.finishedAt ?? row.startedAt))
        }
    }

    public func recentRuns() async throws -> [RunPayload] {
        let formatter = ISO8601DateFormatter()
        let rows = try await store.recentRuns(songId: nil, limit: 40)
        return rows.map { row in
            RunPayload(songId: row.songId, songTitle: row.songTitle, singer: row.singer, part: row.part, total: Double(row.total),
                       status: row.status.rawValue, mode: row.mode, difficulty: row.difficulty, key: row.keyShift,
                       tempo: row.tempo, startedAt: formatter.string(from: row.startedAt),
                       finishedAt: row.finishedAt.map { formatter.string(from: $0) })
        }
    }
}
