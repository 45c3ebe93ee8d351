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
}
