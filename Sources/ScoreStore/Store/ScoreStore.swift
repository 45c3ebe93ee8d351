import Foundation
import GRDB
import Scoring

/// The results database (`scores/karaoke.sqlite` by default).
///
/// An actor, so scoring code hands lines over without touching the disk itself; it is never
/// called from an audio thread. SQLite runs in WAL mode and every line is its own
/// transaction, so a crash loses at most the line being sung. A database that cannot be
/// read is reported and left exactly as it is.
public actor ScoreStore {
    public static let defaultPath = "scores/karaoke.sqlite"
    /// Below this perfection a line counts as missed (rated worse than Good).
    public static let missThreshold = 0.5

    public nonisolated let path: String
    private let pool: DatabasePool
    private let busyTimeout: Double

    /// Opens (creating if needed, unless `readOnly`) the database at `path` and migrates it.
    /// Waits up to `busyTimeout` seconds for another writer before giving up with `.locked`.
    public init(path: String = ScoreStore.defaultPath, busyTimeout: Double = 5, readOnly: Bool = false) throws(ScoreStoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        let fm = FileManager.default
        if readOnly, !fm.fileExists(atPath: path) {
            throw .cannotOpen(path: path, detail: "no such file: no scores have been recorded there yet")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !readOnly, !directory.isEmpty, !fm.fileExists(atPath: directory) {
            do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw .cannotOpen(path: path, detail: "cannot create \(directory): \(error.localizedDescription)")
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = true
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            // Touch the schema now so a damaged file is reported at open, not mid-song.
            if readOnly {
                _ = try pool.read { db in try db.tableExists("performance") }
            } else {
                try ScoreMigrations.migrator.migrate(pool)
            }
            self.pool = pool
        } catch {
            throw ScoreStoreError.from(error, path: path, busyTimeout: busyTimeout)
        }
    }

    // MARK: Writing, line by line

    /// Records the start of a performance (status in-progress) and returns its id.
    public func begin(_ start: PerformanceStart, at date: Date = Date()) throws(ScoreStoreError) -> Int64 {
        var record = PerformanceRecord(
            id: nil, songId: start.songId, songTitle: start.songTitle, singer: start.singer, part: start.part,
            difficulty: start.configuration.difficulty.rawValue, mode: start.configuration.mode.rawValue,
            keyShift: start.configuration.keyShift, tempo: start.configuration.tempo, basis: start.basis.rawValue,
            total: 0, startedAt: date, finishedAt: nil, status: .inProgress)
        try write { db in try record.insert(db) }
        return record.id!
    }

    /// Stores one closed line and the running total, in one transaction.
    public func record(_ line: LineResult, performance id: Int64) throws(ScoreStoreError) {
        let notes = (try? JSONEncoder().encode(line.notes)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        var row = LineResultRecord(
            id: nil, performanceId: id, lineIndex: line.lineIndex, text: line.text, score: line.score,
            maxScore: line.maxScore, bonus: line.bonus, perfection: line.perfection, rating: line.rating.rawValue,
            notesJSON: notes)
        try write { db in
            guard try PerformanceRecord.exists(db, key: id) else { throw ScoreStoreError.noSuchPerformance(id: id) }
            try row.upsert(db)
            let sum = try Double.fetchOne(
                db, sql: "SELECT COALESCE(SUM(score + bonus), 0) FROM lineResult WHERE performanceId = ?", arguments: [id]) ?? 0
            try db.execute(sql: "UPDATE performance SET total = ? WHERE id = ?", arguments: [Int(sum.rounded()), id])
        }
    }

    /// Marks the performance complete with its final total.
    public func finish(_ id: Int64, total: Int, at date: Date = Date()) throws(ScoreStoreError) {
        try write { db in
            guard var record = try PerformanceRecord.fetchOne(db, key: id) else { throw ScoreStoreError.noSuchPerformance(id: id) }
            record.total = total
            record.finishedAt = date
            record.status = .complete
            try record.update(db)
        }
    }

    // MARK: Reading

    public func performance(_ id: Int64) throws(ScoreStoreError) -> PerformanceRecord? {
        try read { db in try PerformanceRecord.fetchOne(db, key: id) }
    }

    public func lines(of id: Int64) throws(ScoreStoreError) -> [LineResultRecord] {
        try read { db in
            try LineResultRecord.filter(Column("performanceId") == id).order(Column("lineIndex")).fetchAll(db)
        }
    }

    /// Best complete performances, highest first (ties: earlier first). Either filter may be nil.
    public func leaderboard(songId: String? = nil, difficulty: Difficulty? = nil, limit: Int = 10) throws(ScoreStoreError) -> [PerformanceRecord] {
        try read { db in
            var request = PerformanceRecord.filter(Column("status") == PerformanceRecord.Status.complete.rawValue)
            if let songId { request = request.filter(Column("songId") == songId) }
            if let difficulty { request = request.filter(Column("difficulty") == difficulty.rawValue) }
            return try request.order(Column("total").desc, Column("finishedAt")).limit(limit).fetchAll(db)
        }
    }

    /// A singer's performances, newest first, including unfinished ones.
    public func history(singer: String, songId: String? = nil, limit: Int = 50) throws(ScoreStoreError) -> [PerformanceRecord] {
        try read { db in
            var request = PerformanceRecord.filter(Column("singer") == singer)
            if let songId { request = request.filter(Column("songId") == songId) }
            return try request.order(Column("startedAt").desc, Column("id").desc).limit(limit).fetchAll(db)
        }
    }

    /// The lines a singer misses most often (perfection below `missThreshold`).
    public func mostMissedLines(singer: String, songId: String? = nil, limit: Int = 10) throws(ScoreStoreError) -> [MissedLine] {
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

    private func write<T>(_ body: (Database) throws -> T) throws(ScoreStoreError) -> T {
        do { return try pool.write(body) } catch { throw ScoreStoreError.from(error, path: path, busyTimeout: busyTimeout) }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(ScoreStoreError) -> T {
        do { return try pool.read(body) } catch { throw ScoreStoreError.from(error, path: path, busyTimeout: busyTimeout) }
    }
}
