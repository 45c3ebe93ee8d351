import EventServer

/// Leaderboard rows for the results view (`StoreLeaderboard` reads the score store).
public protocol RoomLeaderboard: Sendable {
    func leaderboard(songId: String?) async -> [LeaderboardEntryPayload]
}
