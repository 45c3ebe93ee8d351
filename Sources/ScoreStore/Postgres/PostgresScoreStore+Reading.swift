import Foundation
import Scoring

/// The store's queries, as `SQLiteScoreStore` answers them.
extension PostgresScoreStore {
    static let performanceColumns = """
        id, songId, songTitle, singer, part, difficulty, mode, keyShift, tempo, basis, total, startedAt, finishedAt,
        status, room, runKey
        """

    public func performance(_ id: Int64) async throws(ScoreStoreError) -> PerformanceRecord? {
        try performances(where: "id = $1", [PostgresParameter(id)], limit: 1).first
    }

    public func lines(of id: Int64) async throws(ScoreStoreError) -> [LineResultRecord] {
        try run { connection in
            try connection.execute("""
                SELECT id, performanceId, lineIndex, text, score, maxScore, bonus, perfection, rating, notesJSON, micLost
                FROM lineResult WHERE performanceId = \(id) ORDER BY lineIndex
                """).map { r in
                LineResultRecord(
                    id: try r.decode("id", as: Int64.self), performanceId: try r.decode("performanceid", as: Int64.self),
                    lineIndex: try r.decode("lineindex", as: Int.self), text: try r.decode("text", as: String.self),
                    score: try r.decode("score", as: Double.self), maxScore: try r.decode("maxscore", as: Double.self),
                    bonus: try r.decode("bonus", as: Double.self), perfection: try r.decode("perfection", as: Double.self),
                    rating: try r.decode("rating", as: String.self), notesJSON: try r.decode("notesjson", as: String.self),
                    micLost: try r.decode("miclost"))
            }
        }
    }

    public func leaderboard(songId: String?, difficulty: Difficulty?, since: Date?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var filter = PostgresFilter()
        filter.add("status = $", PerformanceRecord.Status.complete.rawValue)
        if let songId { filter.add("songId = $", songId) }
        if let difficulty { filter.add("difficulty = $", difficulty.rawValue) }
        if let since { filter.add("finishedAt >= $", since) }
        return try performances(where: filter.sql, filter.binds, order: "total DESC, finishedAt ASC, id ASC", limit: limit)
    }

    public func history(singer: String, songId: String?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var filter = PostgresFilter()
        filter.add("singer = $", singer)
        if let songId { filter.add("songId = $", songId) }
        return try performances(where: filter.sql, filter.binds, order: "startedAt DESC, id DESC", limit: limit)
    }

    public func recentRuns(songId: String?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord] {
        var filter = PostgresFilter()
        if let songId { filter.add("songId = $", songId) }
        return try performances(where: filter.sql, filter.binds, order: "startedAt DESC, id DESC", limit: limit)
    }

    public func mostMissedLines(singer: String, songId: String?, limit: Int) async throws(ScoreStoreError) -> [MissedLine] {
        var filter = PostgresFilter()
        filter.add("p.singer = $", singer)
        if let songId { filter.add("p.songId = $", songId) }
        var binds = filter.binds
        binds.append(PostgresParameter(scoreMissThreshold))
        let threshold = binds.count
        binds.append(PostgresParameter(limit))
        let sql = """
            SELECT p.songId, MAX(p.songTitle) AS songTitle, l.lineIndex, MAX(l.text) AS text, COUNT(*) AS attempts,
                   SUM(CASE WHEN l.perfection < $\(threshold) THEN 1 ELSE 0 END) AS misses,
                   AVG(l.perfection) AS averagePerfection
            FROM lineResult l JOIN performance p ON p.id = l.performanceId
            WHERE \(filter.sql) AND l.maxScore > 0
            GROUP BY p.songId, l.lineIndex HAVING SUM(CASE WHEN l.perfection < $\(threshold) THEN 1 ELSE 0 END) > 0
            ORDER BY misses DESC, averagePerfection ASC, p.songId, l.lineIndex LIMIT $\(binds.count)
            """
        return try run { connection in
            try connection.execute(PostgresQuery(unsafeSQL: sql, parameters: binds)).map { r in
                MissedLine(
                    songId: try r.decode("songid", as: String.self), songTitle: try r.decode("songtitle", as: String.self),
                    lineIndex: try r.decode("lineindex", as: Int.self), text: try r.decode("text", as: String.self),
                    attempts: try r.decode("attempts", as: Int.self), misses: try r.decode("misses", as: Int.self),
                    averagePerfection: try r.decode("averageperfection", as: Double.self))
            }
        }
    }

    // MARK: Rows

    func performances(where condition: String, _ binds: [PostgresParameter], order: String = "id",
                      limit: Int) throws(ScoreStoreError) -> [PerformanceRecord] {
        let binds = binds + [PostgresParameter(limit)]
        let sql = "SELECT \(Self.performanceColumns) FROM performance WHERE \(condition) ORDER BY \(order) LIMIT $\(binds.count)"
        return try run { connection in
            try connection.execute(PostgresQuery(unsafeSQL: sql, parameters: binds)).map(Self.performance(from:))
        }
    }

    static func performance(from r: PostgresRow) throws -> PerformanceRecord {
        let status = try r.decode("status", as: String.self)
        guard let known = PerformanceRecord.Status(rawValue: status) else {
            throw ScoreStoreError.database(path: "", detail: "performance has unknown status \"\(status)\"")
        }
        return PerformanceRecord(
            id: try r.decode("id", as: Int64.self), songId: try r.decode("songid", as: String.self),
            songTitle: try r.decode("songtitle", as: String.self), singer: try r.decode("singer", as: String.self),
            part: try r.decode("part", as: Int.self), difficulty: try r.decode("difficulty", as: String.self),
            mode: try r.decode("mode", as: String.self), keyShift: try r.decode("keyshift", as: Int.self),
            tempo: try r.decode("tempo", as: Double.self), basis: try r.decode("basis", as: String.self),
            total: try r.decode("total", as: Int.self), startedAt: try r.decode("startedat", as: Date.self),
            finishedAt: try r.decodeIfPresent("finishedat", as: Date.self), status: known,
            room: try r.decodeIfPresent("room", as: String.self), runKey: try r.decodeIfPresent("runkey", as: String.self))
    }
}

/// A WHERE clause built from optional conditions, each `$` numbered as its value is bound.
struct PostgresFilter {
    private var conditions: [String] = []
    private(set) var binds: [PostgresParameter] = []

    var sql: String { conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND ") }

    mutating func add<Value: PostgresBindable>(_ condition: String, _ value: Value) {
        binds.append(PostgresParameter(value))
        conditions.append(condition.replacingOccurrences(of: "$", with: "$\(binds.count)"))
    }
}
