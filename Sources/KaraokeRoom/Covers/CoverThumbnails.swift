import Dispatch
import EventServer
import Foundation
import Logging
import Synchronization

/// Thumbnails of the library's covers, made on demand off every other thread and kept on disk
/// (`<scores>/covers/<key>.jpg`), served at `/cover/<key>.jpg`.
///
/// A key is a hash of a cover the library index named (path, size, modification time), handed
/// out by `url(forCover:)` when a page of songs is sent; `lookup` answers only keys handed
/// out, so nothing a client sends is ever opened as a path. A changed cover gets a new key,
/// which lets browsers keep a thumbnail for a week.
public final class CoverThumbnails: GeneratedFileSource {
    public static let mountpoint = "/cover"
    static let maxAge = 7 * 24 * 3600
    /// Keys remembered at most (a library's covers; beyond it the oldest are forgotten).
    static let maxKnown = 50_000

    private struct State {
        var known: [String: String] = [:]
        var knownOrder: [String] = []
        var ready: Set<String> = []
        var failed: Set<String> = []
        /// Keys waiting to be made, the most recently asked for last (made first).
        var wanted: [String] = []
        var working = false
    }

    let directory: String
    private let state = Mutex(State())
    private let worker = DispatchQueue(label: "karaoke.covers", qos: .utility)
    private let logger: Logger

    public init(directory: String, logger: Logger = Logger(label: "karaoke.covers")) {
        self.directory = directory
        self.logger = logger
    }

    /// The address of the thumbnail of the cover at `path` (an index's cover), or nil when the
    /// file is gone. Starts making the thumbnail when it is not on disk yet.
    func url(forCover path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let key = Self.key("\(path)\u{0}\(info.st_size)\u{0}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
        let onDisk = FileManager.default.fileExists(atPath: file(key))
        let start = state.withLock { state -> Bool in
            if state.known[key] == nil {
                state.known[key] = path
                state.knownOrder.append(key)
                if state.knownOrder.count > Self.maxKnown {
                    let old = state.knownOrder.removeFirst()
                    state.known[old] = nil
                    state.ready.remove(old)
                }
            }
            if onDisk { state.ready.insert(key); return false }
            return Self.want(key, in: &state)
        }
        if start { worker.async { self.work() } }
        return "\(Self.mountpoint)/\(key).jpg"
    }

    public func lookup(_ name: String) -> GeneratedFileLookup {
        guard name.hasSuffix(".jpg") else { return .unknown }
        let key = String(name.dropLast(4))
        guard key.utf8.count == 16, key.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return .unknown }
        let (answer, start) = state.withLock { state -> (GeneratedFileLookup, Bool) in
            if state.ready.contains(key) { return (.file(path: file(key), mimeType: "image/jpeg", maxAge: Self.maxAge), false) }
            guard state.known[key] != nil, !state.failed.contains(key) else { return (.unknown, false) }
            return (.notReady, Self.want(key, in: &state))
        }
        if start { worker.async { self.work() } }
        return answer
    }

    /// Puts `key` at the front of the work; true when the worker must be started.
    private static func want(_ key: String, in state: inout State) -> Bool {
        guard !state.ready.contains(key), !state.failed.contains(key) else { return false }
        state.wanted.removeAll { $0 == key }
        state.wanted.append(key)
        if state.wanted.count > 500 { state.wanted.removeFirst(state.wanted.count - 500) }
        defer { state.working = true }
        return !state.working
    }

    private func work() {
        while true {
            let next = state.withLock { state -> (String, String)? in
                while let key = state.wanted.popLast() {
                    if let path = state.known[key], !state.ready.contains(key) { return (key, path) }
                }
                state.working = false
                return nil
            }
            guard let (key, path) = next else { return }
            do {
                let thumbnail = try CoverThumbnail.jpeg(path: path)
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try thumbnail.write(to: URL(fileURLWithPath: file(key)), options: .atomic)
                state.withLock { _ = $0.ready.insert(key) }
            } catch {
                logger.warning("cover thumbnail: \(error); the song is listed without a cover")
                state.withLock { _ = $0.failed.insert(key) }
            }
        }
    }

    private func file(_ key: String) -> String { directory + "/" + key + ".jpg" }

    /// 64-bit FNV-1a, as 16 hex digits.
    static func key(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
