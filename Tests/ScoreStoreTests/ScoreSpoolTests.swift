import Foundation
import Scoring
import Synchronization
import Testing
@testable import ScoreStore

/// The write queue's journal on disk: a room killed while its database refuses writes keeps
/// every line it had queued, and the next room to start on the same store stores them once.
@Suite struct ScoreSpoolTests {
    let directory = NSTemporaryDirectory() + "score-spool-\(UUID().uuidString)"
    var spoolDirectory: String { directory + "/spool" }

    func line(_ index: Int, points: Double) -> LineResult {
        LineResult(lineIndex: index, text: "line \(index)", start: Double(index), end: Double(index) + 1,
                   score: points, maxScore: 1000, bonus: 0, perfection: points / 1000,
                   rating: LineRating(perfection: points / 1000),
                   notes: [NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4, creditedBeats: 2, deviationCents: 10)])
    }

    func start(_ singer: String) -> PerformanceStart {
        PerformanceStart(songId: "song", songTitle: "Song", singer: singer, part: 0, configuration: ScoringConfiguration(), basis: .notes)
    }

    func spoolFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: spoolDirectory)) ?? []).filter { $0.hasSuffix(".spool") }
    }

    /// Generous: it returns on arrival, and in the full run parallel CPU-bound suites can keep
    /// this test's own task from running for tens of seconds (a 20 s wait once ran out in CI).
    static let patience = 180.0

    /// Waits until nobody holds `file`'s lock. After `abandonAsIfKilled` a child process that
    /// another test of this run is spawning at that moment still holds a copy of the journal's
    /// descriptor until its `exec` closes it (O_CLOEXEC): under a loaded full run that window
    /// once outlasted the test's next step (CI: the journal was taken for a running room's).
    /// The server itself spawns no processes.
    func waitUntilUnlocked(_ file: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            let free = flock(fd, LOCK_EX | LOCK_NB) == 0
            close(fd)
            if free { return true }
            usleep(5_000)
        }
        return false
    }

    func waitFor(_ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(Self.patience)
        while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    }

    @Test func aRoomKilledWhileTheDatabaseIsDownLosesNoQueuedLine() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: directory + "/karaoke.sqlite")
        let writer = SwitchableWriter(store: store)
        let first = ScoreWriteQueue(path: store.path, writer: writer, initialDelay: 0.02, maxDelay: 0.1)
        #expect(try first.attachSpool(directory: spoolDirectory).files == 0)
        let run = first.begin(start("Ana"))
        for i in 0..<3 { first.record(line(i, points: 900), run: run) }
        #expect(await first.flush(timeout: Self.patience))
        writer.failing.withLock { $0 = true }
        for i in 3..<8 { first.record(line(i, points: 500), run: run) }
        let other = first.begin(start("Bo"))
        first.record(line(0, points: 700), run: other)
        first.finish(other, total: 700)
        // Every held-back write reaches the disk while the database still refuses it.
        await waitFor { (try? String(contentsOfFile: spoolDirectory + "/" + (spoolFiles().first ?? ""), encoding: .utf8))?
            .split(separator: "\n").count == 1 + 1 + 5 + 3 }
        let text = try String(contentsOfFile: spoolDirectory + "/" + #require(spoolFiles().first), encoding: .utf8)
        #expect(text.split(separator: "\n").count == 10, "header, Ana's begin (kept after the drain), 5 lines, Bo's 3 writes")
        first.abandonAsIfKilled()
        #expect(waitUntilUnlocked(spoolDirectory + "/" + (spoolFiles().first ?? "")))
        // The half-written line a kill can leave behind.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: spoolDirectory + "/" + #require(spoolFiles().first)))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"kind\":\"rec".utf8))
        try handle.close()
        #expect(try store.lines(of: 1).count == 3)

        writer.failing.withLock { $0 = false }
        let second = ScoreWriteQueue(path: store.path, writer: writer, initialDelay: 0.02, maxDelay: 0.1)
        let adoption = try second.attachSpool(directory: spoolDirectory)
        #expect(adoption.files == 1)
        #expect(adoption.runs == 2)
        #expect(adoption.lines == 6)
        #expect(adoption.unreadable == 1)
        #expect(await second.flush(timeout: Self.patience))
        let ana = try #require(try store.history(singer: "Ana", limit: 5).first)
        #expect(try store.history(singer: "Ana", limit: 5).count == 1, "the begin replayed by its key finds the row")
        #expect(try store.lines(of: ana.id!).map(\.lineIndex) == Array(0..<8))
        #expect(ana.status == .inProgress, "the killed room never finished it")
        let bo = try #require(try store.history(singer: "Bo", limit: 5).first)
        #expect(bo.status == .complete && bo.total == 700)
        #expect(spoolFiles().count == 1, "only the adopting room's own journal is left")
        await second.close(timeout: 1)
        #expect(spoolFiles().isEmpty, "a clean stop with everything stored removes the journal")
    }

    @Test func aRunningRoomsJournalIsNotTakenAndAnotherStoresIsLeftAlone() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let running = ScoreWriteQueue(path: "postgres://k@db/venue", writer: nil)
        let runningFile = try running.attachSpool(directory: spoolDirectory).path
        _ = running.begin(start("Ana"))
        let other = ScoreWriteQueue(path: "postgres://k@db/venue", writer: nil)
        #expect(try other.attachSpool(directory: spoolDirectory).files == 0, "locked by a live queue")
        let elsewhere = ScoreWriteQueue(path: "postgres://k@other/venue", writer: nil)
        running.abandonAsIfKilled()
        #expect(waitUntilUnlocked(runningFile))
        let adoption = try elsewhere.attachSpool(directory: spoolDirectory)
        #expect(adoption.files == 0)
        #expect(adoption.foreignFiles.count == 1)
        #expect(spoolFiles().count == 3)
        withExtendedLifetime(other) {}
    }

    @Test func theDiskSpoolIsBounded() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try ScoreSpool(directory: spoolDirectory, store: "postgres://k@db/venue", maxBytes: 4096)
        let entry = ScoreSpool.Entry(kind: .record, key: "k", line: line(0, points: 1))
        #expect(throws: ScoreStoreError.self) { for _ in 0..<100 { try spool.append([entry]) } }
        try spool.compact(keeping: [])
        try spool.append([entry])
    }
}
