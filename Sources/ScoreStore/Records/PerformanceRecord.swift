import Foundation
import GRDB

/// One row of `performance`: who sang what, how it was judged, and the running total.
public struct PerformanceRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "performance"

    public enum Status: String, Codable, Sendable {
        case inProgress = "in-progress"
        case complete
        /// Sung to the end, but a microphone was lost on the way: in the history, never on the leaderboard.
        case interrupted
    }

    public var id: Int64?
    public var songId: String
    public var songTitle: String
    public var singer: String
    /// 0-based voice part (duets).
    public var part: Int
    public var difficulty: String
    public var mode: String
    public var keyShift: Int
    public var tempo: Double
    /// `ScoreBasis` raw value: notes, derivedNotes or participation.
    public var basis: String
    /// Points so far; final once `status` is complete.
    public var total: Int
    public var startedAt: Date
    public var finishedAt: Date?
    public var status: Status

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
