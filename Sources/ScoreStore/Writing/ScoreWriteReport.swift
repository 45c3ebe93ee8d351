/// What the write queue tells whoever runs the server (log and host clients).
public enum ScoreWriteReport: Sendable, Equatable, CustomStringConvertible {
    /// Writes are failing; `pending` lines and marks are kept in memory and retried.
    case failing(ScoreStoreError, pending: Int)
    /// The database accepts writes again; everything held back was written.
    case recovered(written: Int, afterSeconds: Double)
    /// Writes that can never succeed (e.g. the performance row was deleted) or did not fit in
    /// memory: `lines` names what was not stored.
    case dropped(reason: String, lines: [String])
    /// The server stopped with writes still refused; they are in the journal at `path` and are
    /// stored by the next room to start with this store and spool directory.
    case spooled(path: String, lines: [String])
    /// The journal on disk cannot be written: held-back writes are in memory only.
    case spoolFailing(ScoreStoreError)
    case spoolRecovered(path: String)

    /// The protocol `error` code host clients receive.
    public var code: String {
        switch self {
        case .failing: "store-write-failed"
        case .recovered: "store-write-recovered"
        case .dropped: "store-write-dropped"
        case .spooled: "store-write-spooled"
        case .spoolFailing: "store-spool-failed"
        case .spoolRecovered: "store-spool-recovered"
        }
    }

    public var description: String {
        switch self {
        case .failing(let error, let pending):
            "scores delayed, not saved yet: \(Self.sentence(error)) \(pending) write(s) are kept in memory and retried until the database works again."
        case .recovered(let written, let seconds):
            "the score database works again: \(written) held-back write(s) stored after \(Int(seconds.rounded())) s."
        case .dropped(let reason, let lines):
            "NOT stored (\(reason)): " + lines.joined(separator: "; ")
        case .spooled(let path, let lines):
            "scores delayed: \(lines.count) write(s) not stored yet are kept in \(path) and stored at the next start: "
                + lines.joined(separator: "; ")
        case .spoolFailing(let error):
            "the score spool on disk cannot be written (\(error)); held-back writes are kept in memory only."
        case .spoolRecovered(let path):
            "the score spool \(path) is written again."
        }
    }

    /// The error's text ending with one full stop (most descriptions end with one already).
    private static func sentence(_ error: ScoreStoreError) -> String {
        let text = "\(error)"
        return text.hasSuffix(".") ? text : text + "."
    }
}
