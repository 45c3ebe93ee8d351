import Foundation
import KaraokeRoom
import RoomProtocol
import ScoreStore
import Scoring
import Synchronization
import Testing

/// The end-of-song `results` broadcast (what the score screens show) must carry the run just
/// sung: its final total and its place on the song's leaderboard (issue 13). The live session
/// ends its runs only after the room told it the song stopped, and the store writes them later
/// still; the room waits for both.
@Suite("Results at the end of a song")
struct FinishedSongResultsTests {
    /// Ends each run as `LiveRoomSession` does, a little late: the run's row is queued for the
    /// store, then the final total published.
    final class EndingLiveSession: RoomLiveSession, @unchecked Sendable {
        let store: SQLiteScoreStore
        let room = Mutex<Room?>(nil)
        let stops = Atomic<Int>(0)
        init(store: SQLiteScoreStore) { self.store = store }

        func roomLoaded(_ entry: CatalogEntry, settings: RoomSettings) {}
        func roomSettingsChanged(_ settings: RoomSettings) {}
        func roomSeeked(to mediaSeconds: Double) {}
        func roomStopped() {
            guard stops.add(1, ordering: .relaxed).newValue == 1 else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { [self] in
                let run = store.writeQueue.begin(PerformanceStart(
                    songId: "test", songTitle: "Test Tune", singer: "Zoe", part: 0,
                    configuration: ScoringConfiguration(), basis: .notes))
                store.writeQueue.finish(run, total: 6543)
                room.withLock { $0 }?.publishTotal(TotalPayload(singer: 0, name: "Zoe", score: 6543, final: true, songId: "test"))
            }
        }
        func calibrate(singer: Int, done: @escaping @Sendable ((any Error)?) -> Void) throws {}
        func microphone(singer: Int, seat: SingerPayload?) -> MicrophoneReport? { nil }
    }

    @Test func theEndOfSongResultsIncludeTheRunJustSung() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-fin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteScoreStore(path: directory.appendingPathComponent("karaoke.sqlite").path)
        let earlier = try await store.begin(PerformanceStart(songId: "test", songTitle: "Test Tune", singer: "Ann", part: 0,
                                                             configuration: ScoringConfiguration(), basis: .notes))
        try await store.finish(earlier, total: 9000)
        let live = EndingLiveSession(store: store)
        let room = try TestRoomServer(leaderboard: StoreLeaderboard(store: store), liveSession: live)
        defer { room.stop() }
        live.room.withLock { $0 = room.room }
        let display = try room.client()
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        try host.sendText(#"{"type":"seek","position":11.6}"#)
        try host.sendText(#"{"type":"play"}"#)
        // A running total while the song plays, as the live session sends after each line.
        room.room.publishTotal(TotalPayload(singer: 0, name: "Zoe", score: 6000, final: false, songId: "test"))

        var results: [String: Any]?
        for _ in 0..<300 where results == nil {
            results = try display.waitFor("results", timeout: 0.01)
            if results == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let payload = try #require(results, "no results broadcast after the song ended")
        let totals = try #require(payload["totals"] as? [[String: Any]])
        #expect(totals.count == 1)
        #expect(totals.first?["score"] as? Double == 6543, "the final total, not the last running one: \(totals)")
        #expect(totals.first?["final"] as? Bool == true)
        let board = try #require(payload["leaderboard"] as? [[String: Any]])
        #expect(board.map { $0["singer"] as? String } == ["Ann", "Zoe"], "the run just sung is on the board: \(board)")
        #expect(board.last?["score"] as? Double == 6543)
        // Exactly one broadcast for the song.
        #expect(try display.waitFor("results", timeout: 1) == nil)
    }

    /// The results page's history: every stored run, newest first, finished or not, with its
    /// song's title and settings.
    @Test func resultsCarryTheRecentRunsOfEverySong() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-runs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteScoreStore(path: directory.appendingPathComponent("karaoke.sqlite").path)
        let start = { (singer: String, song: String, title: String, key: Int) in
            PerformanceStart(songId: song, songTitle: title, singer: singer, part: 0,
                             configuration: ScoringConfiguration(keyShift: key), basis: .notes)
        }
        let full = try await store.begin(start("Ann", "test", "Test Tune", 0), at: Date(timeIntervalSince1970: 1_000))
        try await store.finish(full, total: 7000, at: Date(timeIntervalSince1970: 1_100))
        _ = try await store.begin(start("Bob", "other", "Other Tune", -2), at: Date(timeIntervalSince1970: 2_000))
        let room = try TestRoomServer(leaderboard: StoreLeaderboard(store: store))
        defer { room.stop() }
        let client = try room.client()
        let results = try await client.requestResults()
        let runs = try #require(results?["runs"] as? [[String: Any]])
        #expect(runs.map { $0["singer"] as? String } == ["Bob", "Ann"])
        #expect(runs.map { $0["songTitle"] as? String } == ["Other Tune", "Test Tune"])
        #expect(runs.map { $0["status"] as? String } == ["in-progress", "complete"])
        #expect(runs.first?["key"] as? Int == -2)
        #expect(runs.last?["total"] as? Double == 7000)
        #expect(runs.first?["finishedAt"] == nil)
    }
}
