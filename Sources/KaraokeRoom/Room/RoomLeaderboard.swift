import RoomProtocol

/// Leaderboard rows for the results view (`StoreLeaderboard` reads the score store). A read that
/// fails throws, so the room can say the board is unknown instead of showing it empty.
public protocol RoomLeaderboard: Sendable {
    func leaderboard(songId: String?) async throws -> [LeaderboardEntryPayload]
    /// Recent runs of every song, newest first, for the results page's history.
    func recentRuns() async throws -> [RunPayload]
}

extension RoomLeaderboard {
    public func recentRuns() async throws -> [RunPayload] { [] }
}
