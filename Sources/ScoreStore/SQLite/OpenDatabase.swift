import Foundation
import GRDB

/// The SQLite store's open connection and the file it was opened on.
struct OpenDatabase: Sendable {
    var queue: DatabaseQueue
    /// Nil when the file could not be looked at right after opening.
    var file: FileIdentity?
}

/// Which file a path names (device and inode): a database renamed over, moved away or removed
/// under the running server is a different identity (or none) at the same path.
struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64

    /// The file at `path` now; nil when there is none (or it cannot be looked at).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
