import Foundation
import Scoring
import Synchronization
import Testing
@testable import ScoreStore

/// A real store behind a switch: while `failing` is on every write throws what SQLite throws
/// for a database made read-only under the server (SQLITE_READONLY → `.cannotOpen`).
final class SwitchableWriter: ScoreWriting {
    let store: SQLiteScoreStore
    let failing = Mutex(false)
    let attempts = Mutex(0)

    init(store: SQLiteScoreStore) { self.store = store }

    private func check() throws(ScoreStoreError) {
        attempts.withLock { $0 += 1 }
        if failing.withLock({ $0 }) {
            throw .cannotOpen(path: store.path, detail: "attempt to write a readonly database")
        }
    }

    func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 {
        try check()
        return try await store.begin(start, key: key, at: date)
    }

    func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {
        try check()
        try await store.record(line, performance: id, micLost: micLost)
    }

    func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) {
        try check()
        try await store.finish(id, total: total, status: status, at: date)
    }
}

@Suite struct ScoreWriteQueueTests {
    let directory = NSTemporaryDirectory() + "write-queue-\(UUID().uuidString)"

    func line(_ index: Int, points: Double) -> LineResult {
        LineResult(lineIndex: index, text: "line \(index)", start: Double(index), end: Double(index) + 1,
                   score: points, maxScore: 1000, bonus: 0, perfection: points / 1000,
                   rating: LineRating(perfection: points / 1000),
                   notes: [NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4, creditedBeats: 2, deviationCents: 10)])
    }

    let start = PerformanceStart(songId: "song", songTitle: "Song", singer: "Ana", part: 0,
                                 configuration: ScoringConfiguration(), basis: .notes)

    /// Issue 12: the database became unwritable mid-song; the room showed every line, the
    /// database kept only the first ones and nobody was told. Now: every line is stored once
    /// the database works again, and the failure and the recovery are both reported.
    @Test func writesFailingMidSongAreKeptRetriedAndReported() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: directory + "/karaoke.sqlite")
        let writer = SwitchableWriter(store: store)
        let reports = Mutex<[ScoreWriteReport]>([])
        let queue = ScoreWriteQueue(path: store.path, writer: writer, initialDelay: 0.02, maxDelay: 0.1)
        queue.setReporter { report in reports.withLock { $0.append(report) } }

        let run = queue.begin(start)
        for i in 0..<3 { queue.record(line(i, points: 500), run: run) }
        #expect(await queue.flush(timeout: 60))
        writer.failing.withLock { $0 = true }
        for i in 3..<8 { queue.record(line(i, points: 700), run: run) }
        queue.finish(run, total: 5000)
        #expect(await queue.flush(timeout: 0.5) == false, "nothing can be written while the database refuses")
        #expect(queue.pendingCount == 6, "the five lines and the finish are held in memory")
        // Retried with back-off (bounded wait: a loaded machine may starve the drain task for a while).
        let attemptsWhenFailing = writer.attempts.withLock { $0 }
        for _ in 0..<2400 where writer.attempts.withLock({ $0 }) < attemptsWhenFailing + 3 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(writer.attempts.withLock { $0 } >= attemptsWhenFailing + 3, "failed writes are retried")
        #expect(queue.pendingCount == 6, "still held while the database refuses")
        let failing = reports.withLock { $0 }
        #expect(failing.count == 1, "one report per failure streak, not one per retry")
        #expect(failing.first?.code == "store-write-failed")

        writer.failing.withLock { $0 = false }
        #expect(await queue.flush(timeout: 60))
        let row = try #require(try store.history(singer: "Ana").first)
        #expect(row.status == .complete)
        #expect(row.total == 5000)
        #expect(try store.lines(of: row.id ?? -1).map(\.lineIndex) == Array(0..<8), "no line lost, in order")
        #expect(reports.withLock { $0.last?.code } == "store-write-recovered")
    }

    @Test func writesStillRefusedAtShutdownAreListedLineByLine() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: directory + "/karaoke.sqlite")
        let writer = SwitchableWriter(store: store)
        writer.failing.withLock { $0 = true }
        let reports = Mutex<[ScoreWriteReport]>([])
        let queue = ScoreWriteQueue(path: store.path, writer: writer, initialDelay: 0.02, maxDelay: 0.05)
        queue.setReporter { report in reports.withLock { $0.append(report) } }
        let run = queue.begin(start)
        queue.record(line(0, points: 812), run: run)
        await queue.close(timeout: 0.3)
        let dropped = reports.withLock { $0 }.compactMap { report -> [String]? in
            if case .dropped(_, let lines) = report { lines } else { nil }
        }
        guard let lines = dropped.first else {
            Issue.record("no report of what was not stored: \(reports.withLock { $0 })")
            return
        }
        #expect(lines.contains { $0.contains("Ana in song, line 1") && $0.contains("812 points") })
    }

    @Test func aLineSungWithoutTheMicrophoneIsMarkedAndTheRunIsInterrupted() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: directory + "/karaoke.sqlite")
        let run = store.writeQueue.begin(start)
        store.writeQueue.record(line(0, points: 900), run: run)
        store.writeQueue.record(line(1, points: 0), run: run, micLost: true)
        store.writeQueue.finish(run, total: 900, status: .interrupted)
        #expect(await store.writeQueue.flush(timeout: 60))
        let row = try #require(try store.history(singer: "Ana").first)
        #expect(row.status == .interrupted)
        #expect(try store.lines(of: row.id ?? -1).map(\.micLost) == [false, true])
        #expect(try store.leaderboard(songId: "song").isEmpty, "an interrupted run is not on the leaderboard")
    }
}
