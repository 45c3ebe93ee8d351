import GRDB

/// A line a singer keeps missing, for practice.
public struct MissedLine: Sendable, Equatable, Codable, FetchableRecord {
    public var songId: String
    public var songTitle: String
    public var lineIndex: Int
    public var text: String
    /// Times the singer sang this line in stored performances.
    public var attempts: Int
    /// Times it was rated below Good (perfection < 0.5).
    public var misses: Int
    public var averagePerfection: Double
}
