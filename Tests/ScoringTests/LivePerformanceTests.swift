import Foundation
import KaraokeRoom
import Scoring
import ScoreStore
import SongModel
import Testing

@Suite struct LivePerformanceTests {
    @Test func linesAreStoredAsTheyCloseAndTheTotalOnFinish() async throws {
        let path = NSTemporaryDirectory() + "live-\(UUID().uuidString)/karaoke.sqlite"
        let store = try ScoreStore(path: path)
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
        let reader = try ScoreStore(path: path, readOnly: true)
        let inProgress = try #require(try await reader.history(singer: "Ana").first)
        #expect(inProgress.status == .inProgress)
        #expect(try await reader.lines(of: inProgress.id!).count == 1)

        await live.feed(Array(samples[fed...]))
        let result = await live.finish()
        #expect(result.total == 10000)
        let stored = try #require(try await reader.performance(inProgress.id!))
        #expect(stored.status == .complete)
        #expect(stored.total == 10000)
        #expect(try await reader.lines(of: inProgress.id!).count == 2)
        #expect(await live.storeErrors.isEmpty)
    }
}
