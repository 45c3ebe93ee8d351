import EventServer
import Foundation
import KaraokeRoom
import Logging
import ScoreStore
import Scoring
import Synchronization
import Testing

/// Issue 12: score writes failed mid-song and nobody was told. Host clients now get an `error`
/// event with code `store-write-failed`, then `store-write-recovered`; other clients get neither.
@Suite struct StoreFailureReportingTests {
    /// Refuses every write while `failing` is on, as a database made read-only does.
    final class Refusing: ScoreWriting {
        let failing = Mutex(true)
        let stored = Mutex<[Int]>([])
        func check() throws(ScoreStoreError) {
            if failing.withLock({ $0 }) { throw .cannotOpen(path: "scores/karaoke.sqlite", detail: "attempt to write a readonly database") }
        }
        func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 { try check(); return 1 }
        func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {
            try check()
            stored.withLock { $0.append(line.lineIndex) }
        }
        func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) { try check() }
    }

    @Test func hostClientsHearThatScoresAreNotSavedAndWhenTheyAreAgain() async throws {
        let server = try TestRoomServer()
        defer { server.stop() }
        let host = try server.client(role: "host", pin: TestRoomServer.pin)
        _ = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        let display = try server.client()

        let writer = Refusing()
        let queue = ScoreWriteQueue(path: "scores/karaoke.sqlite", writer: writer, initialDelay: 0.02, maxDelay: 0.1)
        queue.report(to: server.room, logger: Logger(label: "test"))
        let run = queue.begin(PerformanceStart(songId: "s", songTitle: "S", singer: "Ana", part: 0,
                                               configuration: ScoringConfiguration(), basis: .notes))
        for i in 0..<3 {
            queue.record(LineResult(lineIndex: i, text: "la", start: 0, end: 1, score: 500, maxScore: 900, bonus: 0,
                                    perfection: 0.6, rating: .good, notes: []), run: run)
        }
        // Store writes run on the cooperative pool, which CPU-bound tests running in parallel can
        // hold for tens of seconds on this 2-core box: wait generously (it returns on arrival).
        let failed = try #require(try host.waitFor("error", timeout: 120) { ($0["code"] as? String) == "store-write-failed" })
        #expect((failed["message"] as? String)?.contains("scores/karaoke.sqlite") == true)
        #expect((failed["message"] as? String)?.contains("kept in memory") == true)
        #expect(failed["command"] == nil)

        writer.failing.withLock { $0 = false }
        #expect(try host.waitFor("error", timeout: 120) { ($0["code"] as? String) == "store-write-recovered" } != nil)
        #expect(writer.stored.withLock { $0 } == [0, 1, 2])
        #expect(try display.waitFor("error", timeout: 0.5) == nil, "only hosts are told")
    }

    /// Issue 40: the score database file replaced mid-song (a real SQLite file), then removed.
    /// The host hears it; a host who signs in while it lasts hears it right after its `hello`;
    /// once the path is free a new database is started, the run is stored there whole, and
    /// everyone who heard the failure hears the recovery. A host signing in after hears nothing.
    @Test func aReplacedDatabaseFileReachesEveryHostUntilItIsDealtWith() async throws {
        let folder = NSTemporaryDirectory() + "store-host-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/karaoke.sqlite"
        let store = try SQLiteScoreStore(path: path)
        let server = try TestRoomServer()
        defer { server.stop() }
        store.writeQueue.report(to: server.room, logger: Logger(label: "test"))
        let host = try server.client(role: "host", pin: TestRoomServer.pin)
        _ = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })

        func line(_ i: Int) -> LineResult {
            LineResult(lineIndex: i, text: "la", start: 0, end: 1, score: 500, maxScore: 900, bonus: 0,
                       perfection: 0.6, rating: .good, notes: [])
        }
        let queue = store.writeQueue
        let run = queue.begin(PerformanceStart(songId: "s", songTitle: "S", singer: "Ana", part: 0,
                                               configuration: ScoringConfiguration(), basis: .notes))
        queue.record(line(0), run: run)
        #expect(await queue.flush(timeout: 60))
        try "a text file".write(toFile: folder + "/other", atomically: false, encoding: .utf8)
        #expect(rename(folder + "/other", path) == 0)
        queue.record(line(1), run: run)
        queue.finish(run, total: 1000)
        let failed = try #require(try host.waitFor("error", timeout: 120) { ($0["code"] as? String) == "store-write-failed" })
        #expect((failed["message"] as? String)?.contains(path) == true)

        let late = try server.client(role: "host", pin: TestRoomServer.pin)
        _ = try #require(try late.waitFor("hello") { ($0["role"] as? String) == "host" })
        #expect(try late.waitFor("error", timeout: 10) { ($0["code"] as? String) == "store-write-failed" } != nil,
                "a host signing in during the fault is told")

        try FileManager.default.removeItem(atPath: path)
        for client in [host, late] {
            #expect(try client.waitFor("error", timeout: 120) { ($0["code"] as? String) == "store-write-recovered" } != nil)
        }
        let after = try server.client(role: "host", pin: TestRoomServer.pin)
        _ = try #require(try after.waitFor("hello") { ($0["role"] as? String) == "host" })
        #expect(try after.waitFor("error", timeout: 1) == nil, "nothing left to tell")
        let reader = try SQLiteScoreStore(path: path, readOnly: true)
        let stored = try #require(try reader.history(singer: "Ana").first)
        #expect(try reader.lines(of: stored.id ?? -1).map(\.lineIndex) == [0, 1])
        #expect(stored.status == .complete)
    }
}
