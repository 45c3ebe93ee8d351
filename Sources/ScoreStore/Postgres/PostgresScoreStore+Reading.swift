import Foundation
import PostgresNIO
import Scoring

/// The store's queries, as `SQLiteScoreStore` answers them.
extension PostgresScoreStore {
    static let performanceColumns = """
        id, songId, songTitle, singer, part, difficulty, mode, keyShift, tempo, basis, total, startedAt, finishedAt,
        status, room, runKey
        """

    public func performance(_ id: Int64) async throws(ScoreStoreError) -> PerformanceRecord? {
        try await performances(where: "id = $1", [id], limit: 1).first
    }

    public func lines(of id: Int64) async throws(ScoreStoreError) -> [LineResultRecord] {
        try await run { connection in
            var lines: [LineResultRecord] = []
            for try await row in try await connection.query("""
                SELECT id, performanceId, lineIndex, text, score, maxScore, bonus, perfection, rating, notesJSON, micLost
                FROM lineResult WHERE performanceId = \(id) ORDER BY lineIndex
                """, logger: logger) {
                let r = row.makeRandomAccess()
                lines.append(LineResultRecord(
                    id: try r["id"].decode(Int64.self), performanceId: try r["performanceid"].decode(Int64.self),
                    lineIndex: try r["lineindex"].decode(Int.self), text: try r["text"].decode(String.self),
                    score: try r["score"].decode(Double.self), maxScore: try r["maxscore"].decode(Double.self),
                    bonus: try r["bonus"].decode(Double.self), perfection: try r["perfection"].decode(Double.self),
                    rating: try r["rating"].decode(String.self), notesJSON: try r["notesjson"].decode(String.self),
                    micLost: try r["miclost"].decode(Bool.self)))
            }
            return lines
        }
    }

    public func leaderboard(songId: String?, difficulty: Difficulty?, since: Date?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var filter = PostgresFilter()
        filter.add("status = $", PerformanceRecord.Status.complete.rawValue)
        if let songId { filter.add("songId = $", songId) }
        if let difficulty { filter.add("difficulty = $", difficulty.rawValue) }
        if let since { filter.add("finishedAt >= $", since) }
        return try await performances(where: filter.sql, filter.binds, order: "total DESC, finishedAt ASC, id ASC", limit: limit)
    }

    public func history(singer: String, songId: String?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var filter = PostgresFilter()
        filter.add("singer = $", singer)
        if let songId { filter.add("songId = $", songId) }
        return try await performances(where: filter.sql, filter.binds, order: "startedAt DESC, id DESC", limit: limit)
    }

    public func recentRuns(songId: String?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var filter = PostgresFilter()
        if let songId { filter.add("songId = $", songId) }
        return try await performances(where: filter.sql, filter.binds, order: "startedAt DESC, id DESC", limit: limit)
    }

    public func mostMissedLines(singer: String, songId: String?, limit: Int) async throws(ScoreStoreError) -> [MissedLine] {
        var filter = PostgresFilter()
        filter.add("p.singer = $", singer)
        if let songId { filter.add("p.songId = $", songId) }
        var binds = filter.binds
        binds.append(scoreMissThreshold)
        let threshold = binds.count
        binds.append(limit)
        let sql = """
            SELECT p.songId, MAX(p.songTitle) AS songTitle, l.lineIndex, MAX(l.text) AS text, COUNT(*) AS attempts,
                   SUM(CASE WHEN l.perfection < $\(threshold) THEN 1 ELSE 0 END) AS misses,
                   AVG(l.perfection) AS averagePerfection
            FROM lineResult l JOIN performance p ON p.id = l.performanceId
            WHERE \(filter.sql) AND l.maxScore > 0
            GROUP BY p.songId, l.lineIndex HAVING SUM(CASE WHEN l.perfection < $\(threshold) THEN 1 ELSE 0 END) > 0
            ORDER BY misses DESC, averagePerfection ASC, p.songId, l.lineIndex LIMIT $\(binds.count)
            """
        return try await run { connection in
            var lines: [MissedLine] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger) {
                let r = row.makeRandomAccess()
                lines.append(MissedLine(
                    songId: try r["songid"].decode(String.self), songTitle: try r["songtitle"].decode(String.self),
                    lineIndex: try r["lineindex"].decode(Int.self), text: try r["text"].decode(String.self),
                    attempts: try r["attempts"].decode(Int.self), misses: try r["misses"].decode(Int.self),
                    averagePerfection: try r["averageperfection"].decode(Double.self)))
            }
            return lines
        }
    }

    // MARK: Rows

    func performances(where condition: String, _ binds: PostgresBindings, order: String = "id",
                      limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var binds = binds
        binds.append(limit)
        let sql = "SELECT \(Self.performanceColumns) FROM performance WHERE \(condition) ORDER BY \(order) LIMIT $\(binds.count)"
        return try await run { connection in
            var records: [PerformanceRecord] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger) {
                records.append(try Self.performance(from: row.makeRandomAccess()))
            }
            return records
        }
    }

    func performances(where condition: String, _ values: [Int64], limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return try await performances(where: condition, binds, limit: limit)
    }

    static func performance(from r: PostgresRandomAccessRow) throws -> PerformanceRecord {
        let status = try r["status"].decode(String.self)
        guard let known = PerformanceRecord.Status(rawValue: status) else {
            throw ScoreStoreError.database(path: "", detail: "performance has unknown status \"\(status)\"")
        }
        return PerformanceRecord(
            id: try r["id"].decode(Int64.self), songId: try r["songid"].decode(String.self),
            songTitle: try r["songtitle"].decode(String.self), singer: try r["singer"].decode(String.self),
            part: try r["part"].decode(Int.self), difficulty: try r["difficulty"].decode(String.self),
            mode: try r["mode"].decode(String.self), keyShift: try r["keyshift"].decode(Int.self),
            tempo: try r["tempo"].decode(Double.self), basis: try r["basis"].decode(String.self),
            total: try r["total"].decode(Int.self), startedAt: try r["startedat"].decode(Date.self),
            finishedAt: try r["finishedat"].decode(Date?.self), status: known,
            room: try r["room"].decode(String?.self), runKey: try r["runkey"].decode(String?.self))
    }
}

/// A WHERE clause built from optional conditions, each `$` numbered as its value is bound.
struct PostgresFilter {
    private var conditions: [String] = []
    private(set) var binds = PostgresBindings()

    var sql: String { conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND ") }

    mutating func add<Value: PostgresNonThrowingEncodable>(_ condition: String, _ value: Value) {
        binds.append(value)
        conditions.append(condition.replacingOccurrences(of: "$", with: "$\(binds.count)"))
    }
}
