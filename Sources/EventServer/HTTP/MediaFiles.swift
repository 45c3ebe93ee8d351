import Foundation
import Synchronization

/// The song files browsers may fetch from `/media/<token>` (a song's background video, its
/// CDG graphics). The room publishes the files of the song it loads and gets back a URL with a
/// random token; a request names only the token, so no path from a client ever reaches the
/// file system. The newest `capacity` files stay published (a display joining a little late
/// still finds the current song's video).
public final class MediaFiles: Sendable {
    public struct File: Sendable, Equatable {
        public var path: String
        public var mimeType: String
    }

    /// URL prefix the server routes here.
    public static let mountpoint = "/media"
    public let capacity: Int
    private let state = Mutex<(files: [String: File], order: [String])>(([:], []))

    public init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
    }

    /// Publishes `path` (the same file again keeps its URL) and returns the URL path to fetch it.
    public func publish(path: String, mimeType: String? = nil) -> String {
        let file = File(path: path, mimeType: mimeType ?? Self.mimeType(for: path))
        let token = state.withLock { state -> String in
            if let known = state.files.first(where: { $0.value == file })?.key {
                state.order.removeAll { $0 == known }
                state.order.append(known)
                return known
            }
            var random = SystemRandomNumberGenerator()
            let token = (0..<2).map { _ in String(random.next() as UInt64, radix: 16) }.joined(separator: "")
            state.files[token] = file
            state.order.append(token)
            while state.order.count > capacity { state.files[state.order.removeFirst()] = nil }
            return token
        }
        return Self.mountpoint + "/" + token + "." + (path as NSString).pathExtension.lowercased()
    }

    /// The file a request path (after the mountpoint, e.g. `/3fa9….mp4`) names, if published.
    public func file(forRequest path: String) -> File? {
        var name = Substring(path)
        if name.hasPrefix(Self.mountpoint + "/") { name = name.dropFirst(Self.mountpoint.count) }
        while name.first == "/" { name = name.dropFirst() }
        guard !name.contains("/") else { return nil }
        let token = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        guard !token.isEmpty, token.utf8.count <= 40 else { return nil }
        return state.withLock { $0.files[token] }
    }

    static let mimeTypes = [
        "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm", "ogv": "video/ogg", "mkv": "video/x-matroska",
        "avi": "video/x-msvideo", "mov": "video/quicktime", "mpg": "video/mpeg", "mpeg": "video/mpeg",
        "cdg": "application/octet-stream",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp",
    ]

    static func mimeType(for path: String) -> String {
        mimeTypes[(path as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
