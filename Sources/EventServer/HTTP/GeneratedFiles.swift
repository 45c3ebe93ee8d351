/// Files the server makes itself (cover thumbnails), served under a mountpoint by name. The
/// name a client asks for is only a key for `lookup`: it never becomes a path; the source says
/// which file (of its own making) answers it, if any.
public enum GeneratedFileLookup: Sendable, Equatable {
    /// Serve this file; browsers may keep it `maxAge` seconds.
    case file(path: String, mimeType: String, maxAge: Int)
    /// Known, but not made yet (answered 503; the client asks again later).
    case notReady
    /// Nothing by that name (404).
    case unknown
}

public protocol GeneratedFileSource: Sendable {
    /// Called on the server's service thread: must answer at once (no decoding, no waiting).
    func lookup(_ name: String) -> GeneratedFileLookup
}
