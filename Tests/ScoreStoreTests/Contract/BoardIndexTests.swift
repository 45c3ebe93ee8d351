import Foundation
import GRDB
import Testing
@testable import ScoreStore

/// The venue's boards (`status = 'complete'`, best first, 500 rows, every 5 s per room) are read
/// through `performance_board` in both dialects: the plan walks the index and does not sort.
@Suite struct BoardIndexTests {
    static let boardQuery = """
        SELECT * FROM performance WHERE status = 'complete' ORDER BY total DESC, finishedAt ASC, id ASC LIMIT 500
        """

    @Test func sqliteReadsTheBoardsThroughTheIndex() throws {
        let path = NSTemporaryDirectory() + "board-index-\(UUID().uuidString)/karaoke.sqlite"
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try SQLiteScoreStore(path: path)
        let plan = try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Self.boardQuery).map { $0["detail"] as String }
        }.joined(separator: "\n")
        #expect(plan.contains("USING INDEX performance_board"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "no sort step: \(plan)")
    }

    @Test(.enabled(if: PostgresBackend.isAvailable, Comment(rawValue: PostgresBackend.absentReason)))
    func postgresReadsTheBoardsThroughTheIndex() async throws {
        let backend = PostgresBackend()
        let store = try #require(try backend.open(room: "Blue") as? PostgresScoreStore)
        let plan = try await store.run { connection in
            // A venue's worth of runs (20,000, a tenth unfinished), and fresh statistics.
            try connection.execute("""
                INSERT INTO performance (songId, songTitle, singer, part, difficulty, mode, keyShift, tempo, basis, total,
                                         startedAt, finishedAt, status, room, runKey)
                SELECT 'song-' || (i % 300), 'Song', 'singer-' || (i % 900), 0, 'medium', 'ultrastar', 0, 1, 'notes',
                       (i * 7919) % 10001, now(), now(), CASE WHEN i % 10 = 0 THEN 'in-progress' ELSE 'complete' END,
                       'room-' || (i % 8), 'key-' || i
                FROM generate_series(1, 20000) AS i
                """)
            try connection.execute("ANALYZE performance")
            return try connection.execute(PostgresQuery(unsafeSQL: "EXPLAIN " + Self.boardQuery))
                .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
        }
        await store.close()
        await backend.dropSchema()
        #expect(plan.contains("Index Scan using performance_board"), "\(plan)")
        #expect(!plan.contains("Sort"), "no sort step: \(plan)")
    }
}
