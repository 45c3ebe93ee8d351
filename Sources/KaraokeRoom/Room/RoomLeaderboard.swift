import RoomProtocol

/// Leaderboard rows for the results view (`StoreLeaderboard` reads the score store).
public protocol RoomLeaderboard: Sendable {
    func leaderboard(songId: String?) async -> [LeaderboardEntryPayload]
    /// Recent runs of every song, newest first, for the results page's history.
    func recentRuns() async -> [RunPayload]
}

extension RoomLeaderboard {
    public func recentRuns() async -> [RunPayload] { [] }
}
