import Foundation
import Synchronization
import Testing
@testable import ScoreStore

/// PostgreSQL going away under a room: nothing finished is lost, the hosts hear "scores delayed",
/// and the queue drains once the server is back. Each test stops and starts a cluster of its own.
/// (This suite used to hang under `swift test`: Foundation's `Process.waitUntilExit` never saw the
/// cluster script's shell exit; the cluster is now run through TestSupport's `ChildProcess`.)
@Suite(.serialized, .enabled(if: PostgresBackend.isAvailable, Comment(rawValue: PostgresBackend.absentReason)))
struct PostgresOutageTests {
    let cluster: PrivatePostgresCluster
    let backend: PostgresBackend

    init() throws {
        cluster = try PrivatePostgresCluster()
        var backend = PostgresBackend()
        backend.address = cluster.address
        self.backend = backend
    }

    @Test func aRestartMidSongLosesNoFinishedLine() async throws {
        let store = try backend.open(room: "Blue")
        let reports = Mutex<[ScoreWriteReport]>([])
        store.writeQueue.setReporter { report in reports.withLock { $0.append(report) } }
        let queue = store.writeQueue
        let run = queue.begin(StoreContract.start("song-r", singer: "Ana"))
        for i in 0..<5 { queue.record(StoreContract.line(i, perfection: 1), run: run) }
        #expect(await queue.flush(timeout: 30))

        try cluster.stop()
        do {
            for i in 5..<12 { queue.record(StoreContract.line(i, perfection: 0.5), run: run) }
            queue.finish(run, total: 9999)
            // The queue keeps them and says so.
            let deadline = ContinuousClock.now + .seconds(30)
            while reports.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(queue.pendingCount == 8)
        }
        try cluster.start()

        #expect(await queue.flush(timeout: 60), "the held-back writes drain once PostgreSQL is back")
        let got = reports.withLock { $0 }
        #expect(got.first?.code == "store-write-failed")
        #expect(got.first?.description.contains("scores delayed") == true)
        #expect(got.last?.code == "store-write-recovered")
        let stored = try #require(try await store.history(singer: "Ana", songId: "song-r", limit: 5).first)
        #expect(stored.total == 9999)
        #expect(stored.status == .complete)
        #expect(try await store.lines(of: stored.id!).map(\.lineIndex) == Array(0..<12))
    }

    /// `kill -9` of a room while PostgreSQL is down: its spool on disk has every queued write, and
    /// the room started again (another store on the same spool directory) stores them once.
    @Test func aRoomKilledWhilePostgresIsDownIsReplayedFromItsSpool() async throws {
        let spool = NSTemporaryDirectory() + "outage-spool-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let first = try backend.open(room: "Red")
        try first.writeQueue.attachSpool(directory: spool)
        let run = first.writeQueue.begin(StoreContract.start("song-k", singer: "Kit"))
        for i in 0..<3 { first.writeQueue.record(StoreContract.line(i, perfection: 1), run: run) }
        #expect(await first.writeQueue.flush(timeout: 30))
        try cluster.stop()
        for i in 3..<9 { first.writeQueue.record(StoreContract.line(i, perfection: 0.5), run: run) }
        let files = { ((try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []).filter { $0.hasSuffix(".spool") } }
        let deadline = ContinuousClock.now + .seconds(30)
        // Header, the run's begin, six lines.
        while ContinuousClock.now < deadline,
              (try? String(contentsOfFile: spool + "/" + (files().first ?? "-"), encoding: .utf8))?.split(separator: "\n").count != 8 {
            try await Task.sleep(for: .milliseconds(20))
        }
        first.writeQueue.abandonAsIfKilled()
        try cluster.start()

        let again = try backend.open(room: "Red")
        let adoption = try again.writeQueue.attachSpool(directory: spool)
        #expect(adoption.files == 1 && adoption.runs == 1 && adoption.lines == 6)
        #expect(await again.writeQueue.flush(timeout: 60))
        let stored = try #require(try await again.history(singer: "Kit", songId: "song-k", limit: 5).first)
        #expect(try await again.history(singer: "Kit", songId: nil, limit: 5).count == 1)
        #expect(try await again.lines(of: stored.id!).map(\.lineIndex) == Array(0..<9))
        #expect(stored.total == 3 * 1100 + 6 * 550)
        #expect(stored.room == "Red")
    }

    @Test func aStoreOpensWhileThePostgresServerIsDownAndWritesWhenItComes() async throws {
        try cluster.stop()
        let store = try backend.open(room: "Blue")
        let shared = try #require(store as? PostgresScoreStore)
        let problem = await shared.checkConnection()
        #expect(problem.map { "\($0)".contains("cannot reach PostgreSQL") } == true, "\(String(describing: problem))")
        let queue = store.writeQueue
        let run = queue.begin(StoreContract.start("song-d", singer: "Bo"))
        queue.record(StoreContract.line(0, perfection: 1), run: run)
        queue.finish(run, total: 1100)
        #expect(await queue.flush(timeout: 1) == false)
        try cluster.start()
        #expect(await shared.checkConnection() == nil)
        #expect(await queue.flush(timeout: 60))
        #expect(try await store.history(singer: "Bo", songId: nil, limit: 5).map(\.total) == [1100])
    }
}

/// `--store postgres://…` addresses (no database needed).
@Suite struct PostgresStoreURLTests {
    @Test func tcpAddress() throws {
        let url = try PostgresStoreURL("postgres://karaoke:secret@db.venue.lan:6543/scores")
        #expect(url.host == "db.venue.lan")
        #expect(url.port == 6543)
        #expect(url.user == "karaoke")
        #expect(url.password == "secret")
        #expect(url.database == "scores")
        #expect(url.schema == "public")
        #expect(url.description == "postgres://karaoke@db.venue.lan:6543/scores", "no password in messages")
    }

    @Test func socketAddresses() throws {
        let query = try PostgresStoreURL("postgres://karaoke@localhost/scores?host=/run/postgresql&schema=venue_1")
        #expect(query.socketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(query.schema == "venue_1")
        let encoded = try PostgresStoreURL("postgresql://karaoke@%2Ftmp%2Fpg:5433/scores")
        #expect(encoded.socketPath == "/tmp/pg/.s.PGSQL.5433")
        #expect(encoded.host == nil)
    }

    @Test func badAddressesSayWhatIsWrong() {
        func problem(_ text: String) -> String {
            do { _ = try PostgresStoreURL(text); return "" } catch { return "\(error)" }
        }
        #expect(problem("postgres://db.lan/scores").contains("no user name"))
        #expect(problem("postgres://k@db.lan/").contains("no database name"))
        #expect(problem("postgres://k@db.lan/s?schema=Drop;Table").contains("schema must be"))
        #expect(problem("postgres://k@db.lan/s?timeout=3").contains("unknown parameter \"timeout\""))
        #expect(problem("postgres://k@db.lan/s?sslmode=sometimes").contains("sslmode must be one of"))
        #expect(problem("postgres://k:hunter2@/s").contains("***"))
        #expect(!problem("postgres://k:hunter2@/s").contains("hunter2"))
    }
}
