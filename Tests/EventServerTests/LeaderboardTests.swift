import EventServer
import Foundation
import KaraokeRoom
import Scoring
import ScoreStore
import Testing

@Suite("Results: leaderboard from the score store")
struct LeaderboardTests {
    @Test func resultsCommandCarriesTheStoredLeaderboard() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-lb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteScoreStore(path: directory.appendingPathComponent("karaoke.sqlite").path)
        for (singer, total) in [("Ann", 7200), ("Bob", 8100)] {
            let id = try await store.begin(PerformanceStart(songId: "test", songTitle: "Test Tune", singer: singer, part: 0,
                                                            configuration: ScoringConfiguration(), basis: .notes))
            try await store.finish(id, total: total)
        }
        let room = try TestRoomServer(leaderboard: StoreLeaderboard(store: store))
        defer { room.stop() }
        let client = try room.client()
        let results = try await client.requestResults()
        let rows = try #require(results?["leaderboard"] as? [[String: Any]])
        #expect(rows.map { $0["singer"] as? String } == ["Bob", "Ann"])
        #expect(rows.first?["score"] as? Double == 8100)
        #expect((rows.first?["date"] as? String)?.count == 20)
    }

    /// A database that cannot be read is not an empty one: the results say the saved scores are
    /// unknown (`storedUnreadable`), and the host is told why (`store-read-failed`).
    @Test func anUnreadableDatabaseIsSaidSoNotShownEmpty() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-lb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("karaoke.sqlite").path
        let store = try SQLiteScoreStore(path: path)
        let id = try await store.begin(PerformanceStart(songId: "test", songTitle: "Test Tune", singer: "Ann", part: 0,
                                                        configuration: ScoringConfiguration(), basis: .notes))
        try await store.finish(id, total: 7200)
        let room = try TestRoomServer(leaderboard: StoreLeaderboard(store: store))
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        #expect(try host.waitFor("hello") { $0["role"] as? String == "host" } != nil)
        // Damaged under the running room: every page of the file overwritten.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try Data(repeating: 0x5a, count: size).write(to: URL(fileURLWithPath: path))
        let guest = try room.client()
        let results = try #require(try await guest.requestResults())
        #expect((results["leaderboard"] as? [Any])?.isEmpty == true)
        #expect(results["runs"] == nil)
        #expect(results["storedUnreadable"] as? String == "The saved scores can't be read right now.")
        let told = try #require(try host.waitFor("error") { $0["code"] as? String == "store-read-failed" })
        #expect((told["message"] as? String)?.contains("could not be read") == true)
    }
}
