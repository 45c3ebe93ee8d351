import Foundation
import GRDB
import Scoring
import SongModel
import Testing
@testable import ScoreStore

@Suite struct ScoreStoreTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "score-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    var dbPath: String { directory + "/scores/karaoke.sqlite" }

    func start(_ song: String, singer: String, difficulty: Difficulty = .medium) -> PerformanceStart {
        PerformanceStart(songId: song, songTitle: "Title of \(song)", singer: singer, part: 0,
                         configuration: ScoringConfiguration(difficulty: difficulty), basis: .notes)
    }

    func line(_ index: Int, perfection: Double, score: Double = 1000) -> LineResult {
        LineResult(lineIndex: index, text: "line \(index)", start: Double(index), end: Double(index) + 1,
                   score: score * perfection, maxScore: score, bonus: 100 * perfection, perfection: perfection,
                   rating: LineRating(perfection: perfection),
                   notes: [NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4, creditedBeats: 4 * perfection, deviationCents: 12)])
    }

    /// Sings a whole performance into the store and returns its id.
    @discardableResult
    func perform(_ store: SQLiteScoreStore, _ song: String, singer: String, perfections: [Double], difficulty: Difficulty = .medium) async throws -> Int64 {
        let id = try await store.begin(start(song, singer: singer, difficulty: difficulty))
        for (i, p) in perfections.enumerated() { try await store.record(line(i, perfection: p), performance: id) }
        let lines = try store.lines(of: id)
        try await store.finish(id, total: Int(lines.reduce(0) { $0 + $1.score + $1.bonus }.rounded()))
        return id
    }

    /// Guests' names are in it: a new database is for its owner's eyes only (the usual umask 022
    /// would leave it readable by everyone).
    @Test func aNewDatabaseIsReadableByItsOwnerOnly() throws {
        let store = try SQLiteScoreStore(path: dbPath)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600, "mode \(String(mode.intValue, radix: 8))")
    }

    @Test func linesAreDurableBeforeThePerformanceFinishes() async throws {
        let store = try SQLiteScoreStore(path: dbPath)
        let id = try await store.begin(start("song-a", singer: "Ana"))
        try await store.record(line(0, perfection: 1), performance: id)
        try await store.record(line(1, perfection: 0.5), performance: id)
        // A second connection (as after a crash and restart) sees both lines and the running total.
        let other = try SQLiteScoreStore(path: dbPath, readOnly: true)
        let record = try #require(try other.performance(id))
        #expect(record.status == .inProgress)
        #expect(record.total == 1000 + 100 + 500 + 50)
        let lines = try other.lines(of: id)
        #expect(lines.map(\.lineIndex) == [0, 1])
        #expect(lines[1].rating == "good")
        #expect(lines[0].notesJSON.contains("\"deviationCents\":12"))
        try await store.finish(id, total: 1650)
        #expect(try other.performance(id)?.status == .complete)
        let journal = try await DatabaseQueue(path: dbPath).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "delete", "a rollback journal: no -shm file is memory-mapped (docs/robustness.md)")
    }

    @Test func leaderboardHistoryAndMissedLines() async throws {
        let store = try SQLiteScoreStore(path: dbPath)
        try await perform(store, "song-a", singer: "Ana", perfections: [1, 1, 0.2])
        try await perform(store, "song-a", singer: "Bo", perfections: [1, 1, 1])
        try await perform(store, "song-a", singer: "Ana", perfections: [1, 0.1, 0.3])
        try await perform(store, "song-a", singer: "Cy", perfections: [1, 1, 1], difficulty: .hard)
        try await perform(store, "song-b", singer: "Ana", perfections: [0.9])
        let unfinished = try await store.begin(start("song-a", singer: "Dee"))
        try await store.record(line(0, perfection: 1), performance: unfinished)

        let board = try store.leaderboard(songId: "song-a", difficulty: .medium)
        #expect(board.map(\.singer) == ["Bo", "Ana", "Ana"])
        #expect(board.map(\.total) == [3300, 2420, 1540])
        #expect(try store.leaderboard(songId: "song-a", difficulty: .hard).map(\.singer) == ["Cy"])
        #expect(try store.leaderboard().count == 5, "in-progress performances are not ranked")

        let history = try store.history(singer: "Ana")
        #expect(history.map(\.songId) == ["song-b", "song-a", "song-a"])

        let missed = try store.mostMissedLines(singer: "Ana")
        #expect(missed.first?.lineIndex == 2)
        #expect(missed.first?.misses == 2)
        #expect(missed.first?.attempts == 2)
        #expect(missed.map(\.lineIndex) == [2, 1])
        #expect(try store.mostMissedLines(singer: "Bo").isEmpty)
    }

    @Test func recordingForAMissingPerformanceIsAClearError() async throws {
        let store = try SQLiteScoreStore(path: dbPath)
        await #expect(throws: ScoreStoreError.noSuchPerformance(id: 42)) {
            try await store.record(line(0, perfection: 1), performance: 42)
        }
    }

    @Test func aCorruptDatabaseIsReportedAndLeftUntouched() throws {
        try FileManager.default.createDirectory(atPath: directory + "/scores", withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try garbage.write(to: URL(fileURLWithPath: dbPath))
        #expect {
            _ = try SQLiteScoreStore(path: dbPath)
        } throws: { error in
            guard case .corrupt(let path, _) = error as? ScoreStoreError else { return false }
            return path == dbPath && "\(error)".contains("left untouched")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dbPath)) == garbage)
    }

    @Test func aDamagedPageInARealDatabaseIsReportedAndResultsAreNotOverwritten() async throws {
        do {
            let store = try SQLiteScoreStore(path: dbPath)
            try await perform(store, "song-a", singer: "Ana", perfections: [1, 0.5])
        }
        // Checkpoint the WAL into the main file, then damage the schema page's header.
        try await DatabaseQueue(path: dbPath).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: dbPath))
        for i in 100..<140 { bytes[i] = 0xFF }
        try bytes.write(to: URL(fileURLWithPath: dbPath))
        #expect(throws: ScoreStoreError.self) { _ = try SQLiteScoreStore(path: dbPath) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dbPath)) == bytes, "the damaged file is kept for recovery")
    }

    @Test func aLockedDatabaseWaitsThenGivesAClearError() async throws {
        let store = try SQLiteScoreStore(path: dbPath, busyTimeout: 0.3)
        let kept = try await perform(store, "song-a", singer: "Ana", perfections: [1])
        let id = try await store.begin(start("song-a", singer: "Bo"))

        // Another connection holds the write lock (on its own thread) until released.
        let other = try DatabaseQueue(path: dbPath)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? other.inTransaction(.immediate) { _ in
                holding.signal()
                release.wait()
                return .rollback
            }
            done.signal()
        }
        holding.wait()
        let clock = ContinuousClock()
        let began = clock.now
        await #expect(throws: ScoreStoreError.locked(path: dbPath, waitedSeconds: 0.3)) {
            try await store.record(line(0, perfection: 1), performance: id)
        }
        #expect(clock.now - began >= .milliseconds(250), "waited for the busy timeout first")
        #expect("\(ScoreStoreError.locked(path: dbPath, waitedSeconds: 0.3))".contains("locked by another program"))
        release.signal()
        done.wait()

        // Earlier results are intact and writing works again.
        #expect(try store.performance(kept)?.status == .complete)
        try await store.record(line(0, perfection: 1), performance: id)
        #expect(try store.lines(of: id).count == 1)
    }

    @Test func readOnlyOpeningOfAMissingFileSaysNoScoresYet() {
        #expect {
            _ = try SQLiteScoreStore(path: directory + "/nothing.sqlite", readOnly: true)
        } throws: { error in
            "\(error)".contains("no scores have been recorded")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/nothing.sqlite"))
    }
}
