import GRDB

/// One row of `lineResult`: a judged line of a performance, written when the line closes.
public struct LineResultRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "lineResult"

    public var id: Int64?
    public var performanceId: Int64
    public var lineIndex: Int
    public var text: String
    public var score: Double
    public var maxScore: Double
    public var bonus: Double
    public var perfection: Double
    public var rating: String
    /// Per-note detail (`[NoteResult]` as JSON) for practice review.
    public var notesJSON: String
    /// The singer's microphone was lost (unplugged, moved to another source) during this line.
    public var micLost: Bool = false

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
