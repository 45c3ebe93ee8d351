/// What the write queue tells whoever runs the server (log and host clients).
public enum ScoreWriteReport: Sendable, Equatable, CustomStringConvertible {
    /// Writes are failing; `pending` lines and marks are kept in memory and retried.
    case failing(ScoreStoreError, pending: Int)
    /// The database accepts writes again; everything held back was written.
    case recovered(written: Int, afterSeconds: Double)
    /// Writes that can never succeed (e.g. the performance row was deleted) or did not fit in
    /// memory: `lines` names what was not stored.
    case dropped(reason: String, lines: [String])

    /// The protocol `error` code host clients receive.
    public var code: String {
        switch self {
        case .failing: "store-write-failed"
        case .recovered: "store-write-recovered"
        case .dropped: "store-write-dropped"
        }
    }

    public var description: String {
        switch self {
        case .failing(let error, let pending):
            "scores delayed, not saved yet: \(error). \(pending) write(s) are kept in memory and retried until the database works again."
        case .recovered(let written, let seconds):
            "the score database works again: \(written) held-back write(s) stored after \(Int(seconds.rounded())) s."
        case .dropped(let reason, let lines):
            "NOT stored (\(reason)): " + lines.joined(separator: "; ")
        }
    }
}
