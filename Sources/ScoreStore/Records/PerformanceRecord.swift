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
    /// The room it was sung in (`serve --room`, default the host name); nil in rows older than rooms.
    public var room: String? = nil
    /// Unique per performance, chosen by the writer: a retried `begin` finds its row instead of adding one.
    public var runKey: String? = nil

    /// A new in-progress row for `start`.
    public init(start: PerformanceStart, room: String, key: String, at date: Date) {
        self.init(
            id: nil, songId: start.songId, songTitle: start.songTitle, singer: start.singer, part: start.part,
            difficulty: start.configuration.difficulty.rawValue, mode: start.configuration.mode.rawValue,
            keyShift: start.configuration.keyShift, tempo: start.configuration.tempo, basis: start.basis.rawValue,
            total: 0, startedAt: date, finishedAt: nil, status: .inProgress, room: room, runKey: key)
    }

    public init(id: Int64?, songId: String, songTitle: String, singer: String, part: Int, difficulty: String, mode: String,
                keyShift: Int, tempo: Double, basis: String, total: Int, startedAt: Date, finishedAt: Date?, status: Status,
                room: String? = nil, runKey: String? = nil) {
        self.id = id
        self.songId = songId
        self.songTitle = songTitle
        self.singer = singer
        self.part = part
        self.difficulty = difficulty
        self.mode = mode
        self.keyShift = keyShift
        self.tempo = tempo
        self.basis = basis
        self.total = total
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.status = status
        self.room = room
        self.runKey = runKey
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
