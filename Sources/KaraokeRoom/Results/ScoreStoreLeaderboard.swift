import EventServer
import Foundation
import ScoreStore

/// The results view's leaderboard, read from the score store (best complete performances).
public struct ScoreStoreLeaderboard: RoomLeaderboard {
    private let store: ScoreStore
    private let limit: Int

    public init(store: ScoreStore, limit: Int = 10) {
        self.store = store
        self.limit = limit
    }

    public func leaderboard(songId: String?) async -> [LeaderboardEntryPayload] {
        // A store problem must not break the results view: show no rows instead.
        guard let rows = try? await store.leaderboard(songId: songId, limit: limit) else { return [] }
        let format = ISO8601DateFormatter()
        return rows.map {
            LeaderboardEntryPayload(songId: $0.songId, singer: $0.singer, score: Double($0.total),
                                    date: format.string(from: $0.finishedAt ?? $0.startedAt))
        }
    }
}
