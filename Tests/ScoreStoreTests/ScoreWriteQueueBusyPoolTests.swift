import Dispatch
import Foundation
import Scoring
import Synchronization
import Testing
@testable import ScoreStore

/// Writes and their failure reports must not wait for the cooperative thread pool: on a 2-core
/// machine it has two threads, and CPU-bound work holding them (seen: parallel scoring tests,
/// for minutes) kept a "scores delayed" report from the hosts.
@Suite struct ScoreWriteQueueBusyPoolTests {
    final class Refusing: ScoreWriting {
        func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 {
            throw .cannotOpen(path: "scores.sqlite", detail: "attempt to write a readonly database")
        }
        func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {
            throw .cannotOpen(path: "scores.sqlite", detail: "attempt to write a readonly database")
        }
        func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) {}
    }

    /// Blocks the calling thread (a pool thread, here) until `gate` opens.
    static func hold(_ gate: DispatchSemaphore) { gate.wait() }

    /// Polls without awaiting: the pool is what is being kept busy.
    static func poll(seconds: Double, until done: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if done() { return true }
            usleep(10_000)
        }
        return done()
    }

    @Test func aFailedWriteIsReportedWhileEveryPoolThreadIsBusy() async {
        let reports = Mutex<[ScoreWriteReport]>([])
        let queue = ScoreWriteQueue(path: "scores.sqlite", writer: Refusing(), initialDelay: 0.02, maxDelay: 0.1)
        queue.setReporter { report in reports.withLock { $0.append(report) } }

        // This test's own thread plus one blocked task per core: every pool thread is taken.
        let gate = DispatchSemaphore(value: 0)
        let holders = ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<holders { Task.detached { Self.hold(gate) } }
        defer { for _ in 0..<holders { gate.signal() } }

        let run = queue.begin(PerformanceStart(songId: "s", songTitle: "S", singer: "Ana", part: 0,
                                               configuration: ScoringConfiguration(), basis: .notes))
        queue.record(LineResult(lineIndex: 0, text: "la", start: 0, end: 1, score: 500, maxScore: 900, bonus: 0,
                                perfection: 0.6, rating: .good, notes: []), run: run)
        let reported = Self.poll(seconds: 5) { !reports.withLock { $0.isEmpty } }
        #expect(reported, "no report while the pool was busy")
        #expect(reports.withLock { $0.first?.code } == "store-write-failed")
    }

    /// The real SQLite store too: its actor runs on the write queue's own thread, so a line is
    /// stored while CPU-bound work holds every pool thread (seen in the full test run: a spool
    /// test's 20-second waits ran out while parallel scoring suites held the pool).
    @Test func aLineIsStoredInSQLiteWhileEveryPoolThreadIsBusy() throws {
        let directory = NSTemporaryDirectory() + "busy-pool-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: directory + "/karaoke.sqlite")

        let gate = DispatchSemaphore(value: 0)
        let holders = ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<holders { Task.detached { Self.hold(gate) } }
        defer { for _ in 0..<holders { gate.signal() } }

        let queue = store.writeQueue
        let run = queue.begin(PerformanceStart(songId: "s", songTitle: "S", singer: "Ana", part: 0,
                                               configuration: ScoringConfiguration(), basis: .notes))
        queue.record(LineResult(lineIndex: 0, text: "la", start: 0, end: 1, score: 500, maxScore: 900, bonus: 0,
                                perfection: 0.6, rating: .good, notes: []), run: run)
        queue.finish(run, total: 500)
        #expect(Self.poll(seconds: 5) { queue.pendingCount == 0 }, "the store's actor waited for the pool")
    }

    /// A writer that blocks its thread, as a SQLite write does while the disk is slow.
    final class Blocking: ScoreWriting {
        let gate: DispatchSemaphore
        init(gate: DispatchSemaphore) { self.gate = gate }
        func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 {
            gate.wait()
            return 1
        }
        func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {}
        func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) {}
    }

    /// Each queue drains on its own thread: one store stuck in a blocking write holds back only
    /// its own lines (the full test run has dozens of stores in one process).
    @Test func aBlockedStoreDoesNotHoldBackAnotherQueue() throws {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let stuck = ScoreWriteQueue(path: "slow.sqlite", writer: Blocking(gate: gate))
        let directory = NSTemporaryDirectory() + "busy-pool-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: directory + "/karaoke.sqlite")
        let start = PerformanceStart(songId: "s", songTitle: "S", singer: "Ana", part: 0,
                                     configuration: ScoringConfiguration(), basis: .notes)
        _ = stuck.begin(start)
        #expect(Self.poll(seconds: 5) { stuck.pendingCount == 1 })
        let run = store.writeQueue.begin(start)
        store.writeQueue.finish(run, total: 0)
        #expect(Self.poll(seconds: 5) { store.writeQueue.pendingCount == 0 }, "waited behind another store's blocked write")
        #expect(stuck.pendingCount == 1)
    }
}
