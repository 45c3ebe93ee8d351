import Foundation
import GRDB
import Scoring
import Synchronization

/// The embedded results database (`scores/karaoke.sqlite` by default), one file per room.
///
/// An actor, so scoring code hands lines over without touching the disk itself; it is never
/// called from an audio thread. Every line is its own transaction, so a crash loses at most
/// the line being sung. A database that cannot be read, or fails `PRAGMA quick_check` at
/// open, is reported and left exactly as it is.
///
/// Journal: a rollback journal (`journal_mode=DELETE`), not WAL. WAL maps its `-shm` index into
/// memory, and an `-shm` that cannot be written or is cut short under us is a SIGBUS that kills
/// the whole server (issue 12). Without WAL there is no shared-memory file at all, and
/// `karaoke scores` in another process can still read between two line writes (see
/// docs/robustness.md for the measured cost).
///
/// Live writers go through `writeQueue`: in order, retried with back-off, kept in memory
/// while the database refuses them, and reported.
public actor SQLiteScoreStore: ScoreStore {
    public static let defaultPath = "scores/karaoke.sqlite"
    /// Below this perfection a line counts as missed (rated worse than Good).
    public static let missThreshold = scoreMissThreshold

    public nonisolated let path: String
    public nonisolated var location: String { path }
    public nonisolated let room: String
    /// The open database and which file it is (replaced when the file is: see `reopenIfMoved`).
    private nonisolated let database: Mutex<OpenDatabase>
    private nonisolated let busyTimeout: Double
    private nonisolated let readOnly: Bool
    /// Set when the store opened another file; thrown once to the write queue (`noticeReopen`).
    private var reopenNotice: ScoreStoreError?
    /// Live writes: ordered, retried, held in memory while the database fails (see `ScoreWriteQueue`).
    public nonisolated let writeQueue: ScoreWriteQueue

    /// Opens (creating if needed, unless `readOnly`) the database at `path` and migrates it.
    /// Waits up to `busyTimeout` seconds for another writer before giving up with `.locked`.
    /// `room`: written into every performance this store begins (rows in a shared store say where they were sung).
    public init(path: String = SQLiteScoreStore.defaultPath, busyTimeout: Double = 5, readOnly: Bool = false,
                room: String = "") throws(ScoreStoreError) {
        self.path = path
        self.room = room
        self.busyTimeout = busyTimeout
        self.readOnly = readOnly
        if readOnly, !FileManager.default.fileExists(atPath: path) {
            throw .cannotOpen(path: path, detail: "no such file: no scores have been recorded there yet")
        }
        if !readOnly { try Self.createOwnerOnly(path) }
        let queue = try Self.openDatabase(path: path, busyTimeout: busyTimeout, readOnly: readOnly)
        database = Mutex(OpenDatabase(queue: queue, file: FileIdentity(path: path)))
        writeQueue = ScoreWriteQueue(path: path)
        writeQueue.attach(WeakScoreWriter(store: self))
    }

    /// Opens and checks the file at `path` (migrated unless `readOnly`); a file that is not a
    /// score database is left exactly as it is.
    private static func openDatabase(path: String, busyTimeout: Double, readOnly: Bool) throws(ScoreStoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = true
        // No memory-mapped I/O: a mapped file changed under us is a SIGBUS, not an error.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 0") }
        do {
            let pool = try DatabaseQueue(path: path, configuration: configuration)
            // Check the whole file now so a damaged one is reported at open, not mid-song.
            let problems = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }
            if problems != ["ok"] {
                throw ScoreStoreError.corrupt(path: path, detail: "quick_check: " + problems.joined(separator: "; "))
            }
            if !readOnly {
                // Leaves WAL (an older server's choice) for the rollback journal: no -shm to map.
                _ = try pool.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") }
                try ScoreMigrations.migrator.migrate(pool)
            } else {
                _ = try pool.read { db in try db.tableExists("performance") }
            }
            return pool
        } catch {
            throw ScoreStoreError.from(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Before each write: the file at `path` is still the one open? A database moved away,
    /// removed or replaced under the running server (SQLite would refuse every write to it from
    /// then on) is opened again: the file now at the path if it is a score database, or a new
    /// one if none is there (as at start). A file there that is not a score database is left
    /// as it is and the write fails (retried by the write queue until it is dealt with).
    /// Whichever write notices it (a line, the venue heartbeat), the write queue is told at its
    /// next write (`reopenNotice`).
    private func reopenIfMoved() throws(ScoreStoreError) {
        guard !readOnly else { return }
        let now = FileIdentity(path: path)
        guard now != database.withLock({ $0.file }) else { return }
        let created = now == nil
        if created { try Self.createOwnerOnly(path) }
        let queue = try Self.openDatabase(path: path, busyTimeout: busyTimeout, readOnly: false)
        database.withLock { $0 = OpenDatabase(queue: queue, file: FileIdentity(path: path)) }
        reopenNotice = .reopened(path: path, detail: created ? "no file was there any more, so a new database was started there"
                                                            : "the score database now at that path is used")
    }

    /// For the write queue's writes (`ScoreWriting`): after the store opened another file, the
    /// next one is not done but throws `.reopened`, so the queue first stores the runs still
    /// going there again (their rows were in the earlier file).
    private func noticeReopen() throws(ScoreStoreError) {
        try reopenIfMoved()
        guard let notice = reopenNotice else { return }
        reopenNotice = nil
        throw notice
    }

    /// A new database is made readable by its owner only: it holds guests' names. (SQLite gives
    /// its journal the database's own mode.) An existing file keeps the mode its owner chose.
    private static func createOwnerOnly(_ path: String) throws(ScoreStoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw .cannotOpen(path: path, detail: "cannot create \(directory): \(error.localizedDescription)")
            }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd); return }
        guard errno == EEXIST else {
            throw .cannotOpen(path: path, detail: "cannot create the file: \(String(cString: strerror(errno)))")
        }
    }

    /// Caps the file at its current size (SQLite's `max_page_count` on this connection; `false`
    /// lifts the cap): a write that needs a new page then fails exactly as on a full disk
    /// (SQLITE_FULL). Tests stand in a full disk with it.
    nonisolated func capSize(_ capped: Bool) throws(ScoreStoreError) {
        let pool = database.withLock { $0.queue }
        do {
            try pool.writeWithoutTransaction { db in
                let pages = capped ? (try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1) : 1_073_741_823
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
            }
        } catch { throw ScoreStoreError.from(error, path: path, busyTimeout: busyTimeout) }
    }

    /// The journal mode SQLite uses for this file (`delete` once a writer opened it).
    nonisolated public func journalMode() throws(ScoreStoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    // MARK: Writing, line by line

    /// Records the start of a performance (status in-progress) and returns its id.
    public func begin(_ start: PerformanceStart, at date: Date = Date()) throws(ScoreStoreError) -> Int64 {
        try insert(start, key: UUID().uuidString, at: date)
    }

    /// Idempotent: a `key` already stored returns that performance's id (a retried begin).
    public func begin(_ start: PerformanceStart, key: String, at date: Date) throws(ScoreStoreError) -> Int64 {
        try noticeReopen()
        return try insert(start, key: key, at: date)
    }

    private func insert(_ start: PerformanceStart, key: String, at date: Date) throws(ScoreStoreError) -> Int64 {
        var record = PerformanceRecord(start: start, room: room, key: key, at: date)
        return try write { db in
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM performance WHERE runKey = ?", arguments: [key]) { return id }
            try record.insert(db)
            return record.id!
        }
    }

    /// Stores one closed line and the running total, in one transaction. `micLost`: the singer's
    /// microphone was gone (unplugged, moved) during the line, so its score says nothing of the singing.
    public func record(_ line: LineResult, performance id: Int64, micLost: Bool = false) throws(ScoreStoreError) {
        try noticeReopen()
        let notes = (try? JSONEncoder().encode(line.notes)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        var row = LineResultRecord(
            id: nil, performanceId: id, lineIndex: line.lineIndex, text: line.text, score: line.score,
            maxScore: line.maxScore, bonus: line.bonus, perfection: line.perfection, rating: line.rating.rawValue,
            notesJSON: notes, micLost: micLost)
        try write { db in
            guard try PerformanceRecord.exists(db, key: id) else { throw ScoreStoreError.noSuchPerformance(id: id) }
            try row.upsert(db)
            let sum = try Double.fetchOne(
                db, sql: "SELECT COALESCE(SUM(score + bonus), 0) FROM lineResult WHERE performanceId = ?", arguments: [id]) ?? 0
            try db.execute(sql: "UPDATE performance SET total = ? WHERE id = ?", arguments: [Int(sum.rounded()), id])
        }
    }

    /// Marks the performance finished with its final total: `complete`, or `interrupted` when a
    /// microphone was lost during it (kept in the history, left off the leaderboard).
    public func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status = .complete,
                       at date: Date = Date()) throws(ScoreStoreError) {
        try noticeReopen()
        try write { db in
            guard var record = try PerformanceRecord.fetchOne(db, key: id) else { throw ScoreStoreError.noSuchPerformance(id: id) }
            record.total = total
            record.finishedAt = date
            record.status = status
            try record.update(db)
        }
    }

    // MARK: Reading (nonisolated: readers in other processes read between two line writes)

    nonisolated public func performance(_ id: Int64) throws(ScoreStoreError) -> PerformanceRecord? {
        try read { db in try PerformanceRecord.fetchOne(db, key: id) }
    }

    nonisolated public func lines(of id: Int64) throws(ScoreStoreError) -> [LineResultRecord] {
        try read { db in
            try LineResultRecord.filter(Column("performanceId") == id).order(Column("lineIndex")).fetchAll(db)
        }
    }

    /// Best complete performances, highest first (ties: earlier first). Either filter may be nil.
    nonisolated public func leaderboard(songId: String? = nil, difficulty: Difficulty? = nil, since: Date? = nil,
                                        limit: Int = 10) throws(ScoreStoreError) -> [PerformanceRecord] {
        try read { db in
            var request = PerformanceRecord.filter(Column("status") == PerformanceRecord.Status.complete.rawValue)
            if let songId { request = request.filter(Column("songId") == songId) }
            if let difficulty { request = request.filter(Column("difficulty") == difficulty.rawValue) }
            if let since { request = request.filter(Column("finishedAt") >= since) }
            return try request.order(Column("total").desc, Column("finishedAt"), Column("id")).limit(limit).fetchAll(db)
        }
    }

    /// A singer's performances, newest first, including unfinished ones.
    nonisolated public func history(singer: String, songId: String? = nil, limit: Int = 50) throws(ScoreStoreError) -> [PerformanceRecord] {
        try read { db in
            var request = PerformanceRecord.filter(Column("singer") == singer)
            if let songId { request = request.filter(Column("songId") == songId) }
            return try request.order(Column("startedAt").desc, Column("id").desc).limit(limit).fetchAll(db)
        }
    }

    /// The lines a singer misses most often (perfection below `missThreshold`).
    nonisolated public func mostMissedLines(singer: String, songId: String? = nil, limit: Int = 10) throws(ScoreStoreError) -> [MissedLine] {
        try read { db in
            var sql = """
                SELECT p.songId AS songId, MAX(p.songTitle) AS songTitle, l.lineIndex AS lineIndex, MAX(l.text) AS text,
                       COUNT(*) AS attempts, SUM(CASE WHEN l.perfection < ? THEN 1 ELSE 0 END) AS misses,
                       AVG(l.perfection) AS averagePerfection
                FROM lineResult l JOIN performance p ON p.id = l.performanceId
                WHERE p.singer = ? AND l.maxScore > 0
                """
            var arguments: StatementArguments = [Self.missThreshold, singer]
            if let songId {
                sql += " AND p.songId = ?"
                arguments += [songId]
            }
            sql += """
                 GROUP BY p.songId, l.lineIndex HAVING misses > 0
                 ORDER BY misses DESC, averagePerfection ASC, p.songId, l.lineIndex LIMIT ?
                """
            arguments += [limit]
            return try MissedLine.fetchAll(db, sql: sql, arguments: arguments)
        }
    }

    // MARK: Error mapping

    func write<T>(_ body: (Database) throws -> T) throws(ScoreStoreError) -> T {
        try reopenIfMoved()
        let pool = database.withLock { $0.queue }
        do { return try pool.write(body) } catch { throw ScoreStoreError.from(error, path: path, busyTimeout: busyTimeout) }
    }

    /// Internal so the other files of this store can read too.
    nonisolated func read<T>(_ body: (Database) throws -> T) throws(ScoreStoreError) -> T {
        let pool = database.withLock { $0.queue }
        do { return try pool.read(body) } catch { throw ScoreStoreError.from(error, path: path, busyTimeout: busyTimeout) }
    }
}
