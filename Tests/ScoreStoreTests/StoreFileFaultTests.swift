import Foundation
import Scoring
import Synchronization
import Testing
@testable import ScoreStore

/// Issue 40: the score database damaged, replaced or removed, or its disk full, while the room
/// runs. The failure is reported once (hosts get `store-write-failed`), the lines sung meanwhile
/// are kept in memory, and once the file is dealt with they are stored and the recovery reported.
/// Real SQLite files throughout; only the full disk is stood in for (`capSize`).
@Suite struct StoreFileFaultTests {
    let directory = NSTemporaryDirectory() + "store-faults-\(UUID().uuidString)"
    var path: String { directory + "/karaoke.sqlite" }
    let start = PerformanceStart(songId: "song", songTitle: "Song", singer: "Ana", part: 0,
                                 configuration: ScoringConfiguration(), basis: .notes)

    func line(_ index: Int, text: String? = nil) -> LineResult {
        LineResult(lineIndex: index, text: text ?? "line \(index)", start: Double(index), end: Double(index) + 1,
                   score: 500, maxScore: 1000, bonus: 0, perfection: 0.5, rating: LineRating(perfection: 0.5),
                   notes: [NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4, creditedBeats: 2, deviationCents: 10)])
    }

    /// What a queue reported.
    final class Reports: Sendable {
        let list = Mutex<[ScoreWriteReport]>([])

        /// The first report with `code`; waits up to two minutes (a loaded machine starves the drain).
        func first(_ code: String) async -> ScoreWriteReport? {
            for _ in 0..<2400 {
                if let found = list.withLock({ $0.first { $0.code == code } }) { return found }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return nil
        }
    }

    /// A write queue over `store` with a short back-off, and what it reports.
    func queue(over store: SQLiteScoreStore) -> (ScoreWriteQueue, Reports) {
        let reports = Reports()
        let queue = ScoreWriteQueue(path: store.path, writer: store, initialDelay: 0.02, maxDelay: 0.2)
        queue.setReporter { report in reports.list.withLock { $0.append(report) } }
        return (queue, reports)
    }

    /// A store at `path`, its write queue, and Ana's run with its first `lines` lines written.
    func runWritten(lines: Int) async throws -> (SQLiteScoreStore, ScoreWriteQueue, Reports, ScoreWriteQueue.Run) {
        let store = try SQLiteScoreStore(path: path)
        let (queue, reports) = queue(over: store)
        let run = queue.begin(start)
        for i in 0..<lines { queue.record(line(i), run: run) }
        #expect(await queue.flush(timeout: 60))
        return (store, queue, reports, run)
    }

    /// Ana's runs and each one's stored line indices, read from the file at `path` now.
    func stored() throws -> [(PerformanceRecord, [Int])] {
        let reader = try SQLiteScoreStore(path: path, readOnly: true)
        return try reader.history(singer: "Ana").map { ($0, try reader.lines(of: $0.id ?? -1).map(\.lineIndex)) }
    }

    @Test func aDamagedFileIsReportedAndTheLinesGoToANewFileOnceItIsMovedAside() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, queue, reports, run) = try await runWritten(lines: 3)

        // The header overwritten mid-song.
        let file = try #require(FileHandle(forWritingAtPath: path))
        try file.write(contentsOf: Data(repeating: 0x5A, count: 100))
        try file.close()
        for i in 3..<6 { queue.record(line(i), run: run) }
        queue.finish(run, total: 3000)
        let failed = try #require(await reports.first("store-write-failed"))
        #expect(failed.description.contains("damaged"), "\(failed)")
        #expect(queue.pendingCount == 4, "the three lines and the finish are kept")

        // The operator moves the damaged file aside: a new one is started and the run stored whole.
        try FileManager.default.moveItem(atPath: path, toPath: path + ".damaged")
        #expect(await reports.first("store-write-recovered") != nil)
        #expect(await queue.flush(timeout: 60))
        let runs = try stored()
        #expect(runs.count == 1)
        #expect(runs.first?.1 == [0, 1, 2, 3, 4, 5])
        #expect(runs.first?.0.status == .complete)
        #expect(runs.first?.0.total == 3000)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path + ".damaged"))
        #expect(damaged.prefix(100) == Data(repeating: 0x5A, count: 100), "the damaged file is left as it was")
    }

    /// Seen against the real server: the venue heartbeat's write noticed the move first, and the
    /// queue's next lines went to the new file under ids it does not have ("NOT stored").
    @Test func aMoveNoticedByAnotherWriteStillHasTheRunsGoingStoredAgain() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (store, queue, reports, run) = try await runWritten(lines: 2)
        try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
        try await store.announce(RoomPresence(name: "room", joinURL: "http://room", nowPlaying: nil, busy: true, heartbeatAt: Date()))
        for i in 2..<4 { queue.record(line(i), run: run) }
        queue.finish(run, total: 2000)
        #expect(await queue.flush(timeout: 60))
        #expect(reports.list.withLock { $0.map(\.code) } == ["store-write-failed", "store-write-recovered"])
        let runs = try stored()
        #expect(runs.count == 1)
        #expect(runs.first?.1 == [0, 1, 2, 3])
        #expect(runs.first?.0.status == .complete)
    }

    /// What is kept to store again is bounded: practice runs after seeks are never finished, so
    /// only the `keptRuns` newest runs keep their lines; older ones are only begun again.
    @Test func onlyTheNewestUnfinishedRunsHaveTheirLinesStoredAgain() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: path)
        let (queue, _) = queue(over: store)
        let count = ScoreWriteQueue.keptRuns + 6
        var runs: [ScoreWriteQueue.Run] = []
        for i in 0..<count {
            let run = queue.begin(PerformanceStart(songId: "song", songTitle: "Song", singer: "S\(i)", part: 0,
                                                   configuration: ScoringConfiguration(), basis: .notes))
            queue.record(line(0), run: run)
            runs.append(run)
        }
        #expect(await queue.flush(timeout: 60))
        try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
        queue.record(line(1), run: try #require(runs.last))
        #expect(await queue.flush(timeout: 60))
        let reader = try SQLiteScoreStore(path: path, readOnly: true)
        func lines(_ i: Int) throws -> [Int]? {
            try reader.history(singer: "S\(i)").first.map { try reader.lines(of: $0.id ?? -1).map(\.lineIndex) }
        }
        #expect(try lines(0) == [], "the oldest run is begun again without its lines")
        #expect(try lines(5) == [])
        #expect(try lines(6) == [0])
        #expect(try lines(count - 1) == [0, 1])
    }

    @Test func aFileReplacedByAnotherIsReportedLeftAloneAndABackupPutBackIsUsed() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, queue, reports, run) = try await runWritten(lines: 2)
        try FileManager.default.copyItem(atPath: path, toPath: path + ".backup")

        // Another file renamed over the database mid-song.
        let stranger = "not a score database\n"
        try stranger.write(toFile: path + ".other", atomically: false, encoding: .utf8)
        #expect(rename(path + ".other", path) == 0)
        for i in 2..<4 { queue.record(line(i), run: run) }
        queue.finish(run, total: 2000)
        let failed = try #require(await reports.first("store-write-failed"))
        #expect(failed.description.contains(path), "\(failed)")
        #expect(await queue.flush(timeout: 1) == false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == stranger, "a file that is not a score database is never written")

        // The backup is put back: the run is stored there, each line once.
        #expect(rename(path + ".backup", path) == 0)
        #expect(await reports.first("store-write-recovered") != nil)
        #expect(await queue.flush(timeout: 60))
        let runs = try stored()
        #expect(runs.count == 1, "the run begun before the backup is the same run")
        #expect(runs.first?.1 == [0, 1, 2, 3])
        #expect(runs.first?.0.total == 2000)
    }

    @Test func aFullDiskIsReportedAndTheLinesAreStoredOnceThereIsRoom() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (store, queue, reports, run) = try await runWritten(lines: 1)

        try store.capSize(true)
        let long = String(repeating: "la ", count: 3000) // each line needs new pages
        for i in 1..<4 { queue.record(line(i, text: long), run: run) }
        let failed = try #require(await reports.first("store-write-failed"))
        #expect(failed.description.contains("full"), "\(failed)")
        #expect(await queue.flush(timeout: 0.5) == false)

        try store.capSize(false)
        #expect(await reports.first("store-write-recovered") != nil)
        #expect(await queue.flush(timeout: 60))
        #expect(try stored().first?.1 == [0, 1, 2, 3])
    }
}
