import AudioFiles
import Foundation
import KaraokeRoom
import Scoring
import SongFormats
import SongModel
import Testing
import TestSupport

/// Synthesised singers through the whole offline pipeline (WAV → PitchDetector → session),
/// on the demo song and corpus songs.
@Suite(.serialized) struct EndToEndTests {
    /// The project's own songs always; the corpus songs when `../shared/corpus` is beside the clone.
    static let songs = [TestPaths.demoSong, TestPaths.fastSong] + (SharedCorpus.isPresent ? [
        TestPaths.corpusUltraStar("UltraStar-Deluxe__Play__SingingTestSongs__ThreeQuartersA4OneQuarterC5.txt"),
        TestPaths.corpusUltraStar("Asvarox__allkaraoke__shared-cloudflare-e2e.txt"),
        TestPaths.corpusUltraStar("man0lis__ultrastar-txt__Pornophonique - Space Invaders.txt"),
    ] : [])

    let scorer = OfflineScorer(pitchSource: DetectorPitchSource())

    func score(_ path: String, singer: SynthesisedSinger, part: Int = 0, _ configuration: ScoringConfiguration) throws -> PerformanceResult {
        let song = try SongFileReader.read(path: path)
        let wav = try singer.write(song, part: part, name: (path as NSString).lastPathComponent)
        defer { try? FileManager.default.removeItem(atPath: wav) }
        return try scorer.score(song: song, recordingPath: wav, options: .init(part: part, configuration: configuration)).result
    }

    static func aligned(_ difficulty: Difficulty = .medium, key: Int = 0, tempo: Double = 1, micDelay: Double = 0) -> ScoringConfiguration {
        ScoringConfiguration(difficulty: difficulty, keyShift: key, tempo: tempo, micDelay: micDelay)
    }

    @Test(arguments: songs) func perfectSingerScoresAtLeast9500OnEasyAndMedium(_ path: String) throws {
        let easy = try score(path, singer: SynthesisedSinger(), Self.aligned(.easy))
        let medium = try score(path, singer: SynthesisedSinger(), Self.aligned(.medium))
        #expect(easy.total >= 9500, "\(path) easy: \(easy.total)")
        #expect(medium.total >= 9500, "\(path) medium: \(medium.total)")
        #expect(easy.basis == .notes)
    }

    @Test(arguments: songs) func anOctaveLowerScoresTheSame(_ path: String) throws {
        let perfect = try score(path, singer: SynthesisedSinger(), Self.aligned())
        let lower = try score(path, singer: SynthesisedSinger(transpose: -12), Self.aligned())
        #expect(abs(lower.total - perfect.total) <= 100, "\(path): octave lower \(lower.total) vs \(perfect.total)")
    }

    @Test(arguments: songs) func threeSemitonesOffScoresAtMost2000(_ path: String) throws {
        for difficulty in [Difficulty.easy, .medium] {
            let off = try score(path, singer: SynthesisedSinger(transpose: 3), Self.aligned(difficulty))
            #expect(off.total <= 2000, "\(path) \(difficulty): \(off.total)")
        }
    }

    @Test(arguments: songs) func silenceScoresZero(_ path: String) throws {
        #expect(try score(path, singer: SynthesisedSinger(silent: true), Self.aligned()).total == 0)
    }

    @Test(arguments: songs) func lateSingerWithMatchingMicDelayScoresLikeThePerfectOne(_ path: String) throws {
        let perfect = try score(path, singer: SynthesisedSinger(), Self.aligned())
        let late = try score(path, singer: SynthesisedSinger(late: 0.2), Self.aligned(micDelay: 0.2))
        #expect(abs(late.total - perfect.total) <= 100, "\(path): late \(late.total) vs \(perfect.total)")
        let uncorrected = try score(path, singer: SynthesisedSinger(late: 0.2), Self.aligned(micDelay: 0))
        #expect(uncorrected.total < perfect.total - 500, "\(path): 200 ms late without correction \(uncorrected.total)")
    }

    @Test(arguments: songs) func keyShiftMovesTheTargets(_ path: String) throws {
        let perfect = try score(path, singer: SynthesisedSinger(), Self.aligned())
        let following = try score(path, singer: SynthesisedSinger(transpose: 2), Self.aligned(key: 2))
        #expect(abs(following.total - perfect.total) <= 100, "\(path): key +2 followed \(following.total) vs \(perfect.total)")
        let unshifted = try score(path, singer: SynthesisedSinger(), Self.aligned(key: 2))
        #expect(unshifted.total <= 2000, "\(path): unshifted melody with key +2 scored \(unshifted.total)")
    }

    @Test(arguments: songs) func recordingAtAnotherTempoIsMappedToMediaTime(_ path: String) throws {
        let perfect = try score(path, singer: SynthesisedSinger(), Self.aligned())
        let faster = try score(path, singer: SynthesisedSinger(tempo: 1.25), Self.aligned(tempo: 1.25))
        #expect(abs(faster.total - perfect.total) <= 150, "\(path): tempo 1.25 \(faster.total) vs \(perfect.total)")
        let unmapped = try score(path, singer: SynthesisedSinger(tempo: 1.25), Self.aligned(tempo: 1))
        #expect(unmapped.total < perfect.total - 1000)
    }
}
