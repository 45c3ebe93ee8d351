import Foundation
import KaraokeRoom
import RoomProtocol
import ScoreStore
import Scoring
import SongModel
import Testing

@Suite struct LivePerformanceTests {
    @Test func linesAreStoredAsTheyCloseAndTheTotalOnFinish() async throws {
        let path = NSTemporaryDirectory() + "live-\(UUID().uuidString)/karaoke.sqlite"
        let store = try SQLiteScoreStore(path: path)
        let song = HandMadeSongs.solo
        let live = try LivePerformance(
            song: song, songId: "hand-made", partIndex: 0, singer: "Ana",
            configuration: ScoringConfiguration(micDelay: 0.14), store: store)
        let samples = SampleSinger.following(song, late: 0.14)
        var fed = 0
        var published: [LineResult] = []
        for now in stride(from: 0.0, through: 3.0, by: 0.05) {
            var batch: [PitchSample] = []
            while fed < samples.count, samples[fed].time <= now {
                batch.append(samples[fed])
                fed += 1
            }
            await live.feed(batch)
            published += await live.advance(to: now)
        }
        #expect(published.map(\.lineIndex) == [0], "line 1 closed after its end plus mic delay, line 2 still open")
        #expect(await live.flush())
        let reader = try SQLiteScoreStore(path: path, readOnly: true)
        let inProgress = try #require(try reader.history(singer: "Ana").first)
        #expect(inProgress.status == .inProgress)
        #expect(try reader.lines(of: inProgress.id!).count == 1)

        await live.feed(Array(samples[fed...]))
        let result = await live.finish()
        #expect(result.total == 10000)
        #expect(await live.flush(), "every write stored")
        let stored = try #require(try reader.performance(inProgress.id!))
        #expect(stored.status == .complete)
        #expect(stored.total == 10000)
        #expect(try reader.lines(of: inProgress.id!).count == 2)
    }
}

@Suite struct RoomAdapterTests {
    @Test func lineResultsBecomeProtocolEvents() throws {
        var session = try ScoringSession(song: HandMadeSongs.solo, configuration: .init(micDelay: 0))
        session.feed(contentsOf: SampleSinger.following(HandMadeSongs.solo))
        let lines = session.finish().lines
        let payload = LineScorePayload(singer: 1, part: 0, result: lines[0])
        #expect(payload.line == 0)
        #expect(abs(payload.score - (9000.0 * 16 / 28 + 500)) < 1e-6)
        #expect(abs(payload.maxScore - payload.score) < 1e-6)
        #expect(payload.rating == "perfect")
        var silent = try ScoringSession(song: HandMadeSongs.solo, configuration: .init(micDelay: 0))
        let miss = LineScorePayload(singer: 1, part: 0, result: silent.finish().lines[1])
        #expect(miss.score == 0)
        #expect(abs(miss.maxScore - (9000.0 * 12 / 28 + 500)) < 1e-6)
        #expect(miss.rating == "poor")
    }

    @Test func theRoomLeaderboardReadsTheStore() async throws {
        let store = try SQLiteScoreStore(path: NSTemporaryDirectory() + "board-\(UUID().uuidString)/k.sqlite")
        let start = PerformanceStart(songId: "demo", songTitle: "Demo", singer: "Ana", part: 0,
                                     configuration: .init(), basis: .notes)
        let id = try await store.begin(start)
        try await store.finish(id, total: 8765)
        let unfinished = try await store.begin(start)
        _ = unfinished
        let board = try await StoreLeaderboard(store: store).leaderboard(songId: "demo")
        #expect(board.map(\.singer) == ["Ana"])
        #expect(board.first?.score == 8765)
        #expect(try await StoreLeaderboard(store: store).leaderboard(songId: "other").isEmpty)
    }
}
