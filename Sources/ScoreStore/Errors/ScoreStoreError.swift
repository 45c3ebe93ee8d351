import GRDB

/// What can go wrong with the score database, phrased for the person running the server.
/// The store never deletes, truncates or replaces a database it cannot read.
public enum ScoreStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists but is not a readable SQLite database.
    case corrupt(path: String, detail: String)
    /// Another process kept the database locked longer than the busy timeout.
    case locked(path: String, waitedSeconds: Double)
    case cannotOpen(path: String, detail: String)
    case noSuchPerformance(id: Int64)
    case database(path: String, detail: String)
    /// The file at `path` is no longer the one the store had open (moved, removed or replaced
    /// while the server ran); the store opened what is there now (`detail` says what). Writes
    /// of runs still going were in the earlier file: the write queue stores them again.
    case reopened(path: String, detail: String)

    public var description: String {
        switch self {
        case .corrupt(let path, let detail):
            "\(path): the score database is damaged or not a database (\(detail)). It was left untouched; "
                + "move it aside (earlier results stay in it for recovery) or point --scores (or --store) elsewhere."
        case .locked(let path, let waited):
            "\(path): the score database is locked by another program; gave up after \(waited) s. "
                + "Close the other program (another karaoke server or an sqlite3 shell) and try again."
        case .cannotOpen(let path, let detail):
            "\(path): cannot open the score database (\(detail))."
        case .noSuchPerformance(let id):
            "no performance with id \(id) in the score database"
        case .database(let path, let detail):
            "\(path): score database error: \(detail)"
        case .reopened(let path, let detail):
            "\(path): the score database file was moved, removed or replaced while the room ran; \(detail). "
                + "Results stored before that stay in the earlier file."
        }
    }

    /// Classifies a GRDB/SQLite error for `path`.
    static func from(_ error: any Error, path: String, busyTimeout: Double) -> ScoreStoreError {
        if let known = error as? ScoreStoreError { return known }
        guard let db = error as? DatabaseError else { return .database(path: path, detail: "\(error)") }
        let detail = db.message ?? "\(db.resultCode)"
        if db.extendedResultCode == .SQLITE_READONLY_DBMOVED {
            return .database(path: path, detail: "the database file was moved, removed or replaced (\(detail))")
        }
        if db.resultCode == .SQLITE_FULL {
            return .database(path: path, detail: "the disk is full (\(detail))")
        }
        switch db.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path, detail: detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path, waitedSeconds: busyTimeout)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY: return .cannotOpen(path: path, detail: detail)
        default: return .database(path: path, detail: detail)
        }
    }
}
