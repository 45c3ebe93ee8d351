import Dispatch
import Foundation
import Logging
import Synchronization

/// The key and tempo each singer last chose for a song, applied when the queue brings their
/// request for that song again; kept across restarts in a small JSON file (`<scores>/key-memory.json`).
///
/// Lives on the room's queue; the file is written off it (latest snapshot wins), atomically, so
/// a crash mid-write leaves the previous file. A failed write is logged and tried again with the
/// next change and at shutdown.
final class KeyMemory: @unchecked Sendable {
    struct Entry: Codable, Equatable {
        var singer: String
        var songId: String
        var key: Int
        var tempo: Double
    }

    struct File: Codable {
        static let currentVersion = 1
        var version: Int
        var entries: [Entry]
    }

    /// Remembered choices at most (the oldest are forgotten first).
    static let maxEntries = 5_000

    let path: String?
    private let logger: Logger
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private let writer = DispatchQueue(label: "karaoke.key-memory", qos: .utility)
    /// The snapshot not on disk yet, and whether a write of it is scheduled.
    private let unsaved = Mutex<(entries: [Entry]?, scheduled: Bool)>((nil, false))

    init(path: String?, logger: Logger) {
        self.path = path
        self.logger = logger
        guard let path, FileManager.default.fileExists(atPath: path) else { return }
        do {
            let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            guard file.version == File.currentVersion else {
                logger.warning("key memory \(path): version \(file.version) is not \(File.currentVersion); starting empty")
                return
            }
            for entry in file.entries.suffix(Self.maxEntries) { store(entry) }
        } catch {
            logger.warning("key memory \(path) cannot be read (\(error)); starting empty, the file is replaced on the next change")
        }
    }

    func recall(singer: String, songId: String) -> (key: Int, tempo: Double)? {
        entries[Self.id(singer, songId)].map { ($0.key, $0.tempo) }
    }

    func remember(singer: String, songId: String, key: Int, tempo: Double) {
        let entry = Entry(singer: singer, songId: songId, key: key, tempo: tempo)
        guard entries[Self.id(singer, songId)] != entry else { return }
        store(entry)
        guard path != nil else { return }
        let snapshot = order.compactMap { entries[$0] }
        let start = unsaved.withLock { pending -> Bool in
            pending.entries = snapshot
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if start { writer.async { self.write() } }
    }

    /// Waits until the latest change is on disk (or its write failed and was logged).
    func flush() {
        writer.sync { write() }
    }

    private func store(_ entry: Entry) {
        let id = Self.id(entry.singer, entry.songId)
        if entries[id] != nil { order.removeAll { $0 == id } }
        entries[id] = entry
        order.append(id)
        if order.count > Self.maxEntries { entries[order.removeFirst()] = nil }
    }

    private func write() {
        guard let path, let snapshot = unsaved.withLock({ $0.entries }) else {
            unsaved.withLock { $0.scheduled = false }
            return
        }
        do {
            let data = try JSONEncoder().encode(File(version: File.currentVersion, entries: snapshot))
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            // A change that came in meanwhile gets its own write.
            let again = unsaved.withLock { pending -> Bool in
                if pending.entries == snapshot { pending.entries = nil }
                pending.scheduled = pending.entries != nil
                return pending.scheduled
            }
            if again { writer.async { self.write() } }
        } catch {
            logger.warning("key memory: cannot write \(path): \(error); kept in memory, tried again with the next change and at shutdown")
            unsaved.withLock { $0.scheduled = false }
        }
    }

    private static func id(_ singer: String, _ songId: String) -> String { singer + "\u{1}" + songId }
}
