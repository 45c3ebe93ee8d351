import Foundation
import Scoring
import Synchronization

/// The write queue's journal on disk, so a room killed (`kill -9`, power cut) while the database
/// is down keeps the lines it had not stored yet: every write is appended (one JSON line each,
/// `fsync`ed) before it is sent to the database, and the file is cut back to the begins of the
/// runs still going once the queue is empty. At the next start a room adopts the files of
/// rooms that are gone (`Orphan`): it copies their writes into its own journal and queues them;
/// every write is idempotent (run keys, line upserts), so one replayed twice stores it once.
///
/// Each running queue holds an exclusive `flock` on its own file; a file nobody holds is an
/// orphan. The file is created under a temporary name and renamed once locked, so another room
/// scanning the directory never takes a file that is still being created.
public final class ScoreSpool: Sendable {
    /// One queued write, as written to disk.
    struct Entry: Codable, Sendable, Equatable {
        enum Kind: String, Codable, Sendable { case begin, record, finish }
        var kind: Kind
        var key: String
        var start: PerformanceStart?
        var line: LineResult?
        var micLost: Bool?
        var total: Int?
        var status: PerformanceRecord.Status?
        var date: Date?
    }

    /// The first line of every file: which store its writes belong to.
    struct Header: Codable, Sendable {
        var karaokeSpool = 1
        var store: String
        var pid: Int32
    }

    /// A journal left by a room that is gone, locked by this process until adopted or released.
    final class Orphan {
        let path: String
        let entries: [Entry]
        /// Lines that did not parse (a write cut short by the kill), skipped.
        let tornLines: Int
        private var descriptor: Int32

        init(path: String, entries: [Entry], tornLines: Int, descriptor: Int32) {
            self.path = path
            self.entries = entries
            self.tornLines = tornLines
            self.descriptor = descriptor
        }

        /// Deletes the file (its writes are safe in the adopting room's journal).
        func remove() {
            unlink(path)
            release()
        }

        func release() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }

        deinit { release() }
    }

    public let directory: String
    public let path: String
    let store: String
    /// Most bytes kept on disk (the queue's own capacity bounds it first: 50,000 writes ≈ 40 MB).
    let maxBytes: Int
    private let descriptor: Int32
    private let bytes = Mutex(0)

    /// Creates this process's journal in `directory` (made if missing) for the store at `store`.
    init(directory: String, store: String, maxBytes: Int = 256 << 20) throws(ScoreStoreError) {
        self.directory = directory
        self.store = store
        self.maxBytes = maxBytes
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: directory, detail: "cannot make the score spool directory: \(error.localizedDescription)")
        }
        let name = "\(getpid())-\(UUID().uuidString.prefix(8)).spool"
        let temporary = (directory as NSString).appendingPathComponent(".\(name).new")
        path = (directory as NSString).appendingPathComponent(name)
        let fd = open(temporary, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure(temporary, "cannot create") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(temporary, path) == 0 else {
            let error = Self.failure(path, "cannot lock")
            close(fd)
            unlink(temporary)
            throw error
        }
        descriptor = fd
        try writeHeader(andEntries: [])
        Self.syncDirectory(directory)
    }

    deinit { close(descriptor) }

    /// Appends `entries` and waits until they are on disk.
    func append(_ entries: [Entry]) throws(ScoreStoreError) {
        guard !entries.isEmpty else { return }
        let data = try Self.encode(entries)
        guard bytes.withLock({ $0 }) + data.count <= maxBytes else {
            throw .cannotOpen(path: path, detail: "the score spool is full (\(maxBytes >> 20) MiB)")
        }
        try write(data)
        bytes.withLock { $0 += data.count }
    }

    /// Everything was stored: keeps only the begins of runs still going (their later lines need them).
    func compact(keeping begins: [Entry]) throws(ScoreStoreError) {
        guard ftruncate(descriptor, 0) == 0 else { throw Self.failure(path, "cannot truncate") }
        bytes.withLock { $0 = 0 }
        try writeHeader(andEntries: begins)
    }

    /// Tests: lets go of the file (and its lock) the way a killed process does, without deleting it.
    func closeAsIfKilled() {
        // The descriptor number stays valid (deinit closes it); the locked file description goes.
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        _ = dup2(null, descriptor)
        close(null)
    }

    /// Deletes the journal (a clean stop with nothing left to store).
    func remove() {
        unlink(path)
    }

    private func writeHeader(andEntries entries: [Entry]) throws(ScoreStoreError) {
        var data: Data
        do {
            data = try JSONEncoder().encode(Header(store: store, pid: getpid()))
        } catch {
            throw .database(path: path, detail: "cannot encode the spool header: \(error)")
        }
        data.append(0x0A)
        data.append(try Self.encode(entries))
        try write(data)
        bytes.withLock { $0 += data.count }
    }

    private func write(_ data: Data) throws(ScoreStoreError) {
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        guard written else { throw Self.failure(path, "cannot write") }
        guard fsync(descriptor) == 0 else { throw Self.failure(path, "cannot fsync") }
    }

    static func encode(_ entries: [Entry]) throws(ScoreStoreError) -> Data {
        let encoder = JSONEncoder()
        var data = Data()
        for entry in entries {
            do { data.append(try encoder.encode(entry)) } catch {
                throw .database(path: "score spool", detail: "cannot encode a write: \(error)")
            }
            data.append(0x0A)
        }
        return data
    }

    // MARK: Orphans

    /// The journals in `directory` that no running process holds, for the store at `store`. Files
    /// of another store are left alone and named in `foreign`.
    static func orphans(in directory: String, store: String) -> (orphans: [Orphan], foreign: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return ([], []) }
        var orphans: [Orphan] = []
        var foreign: [String] = []
        for name in names.sorted() where name.hasSuffix(".spool") && !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { continue }
            // Held: its room is running.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { close(fd); continue }
            let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            let header = lines.isEmpty ? nil : try? JSONDecoder().decode(Header.self, from: Data(lines.removeFirst().utf8))
            if let header, header.store != store {
                foreign.append(path)
                close(fd)
                continue
            }
            var entries: [Entry] = []
            var torn = 0
            let decoder = JSONDecoder()
            for line in lines {
                if let entry = try? decoder.decode(Entry.self, from: Data(line.utf8)) { entries.append(entry) } else { torn += 1 }
            }
            orphans.append(Orphan(path: path, entries: entries, tornLines: torn, descriptor: fd))
        }
        return (orphans, foreign)
    }

    // MARK: Helpers

    static func failure(_ path: String, _ what: String) -> ScoreStoreError {
        .cannotOpen(path: path, detail: "\(what) the score spool: \(String(cString: strerror(errno)))")
    }

    /// Makes a new file's name durable (a power cut right after could otherwise lose the entry).
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
