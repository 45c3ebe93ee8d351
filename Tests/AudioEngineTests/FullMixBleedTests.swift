@testable import AudioEngine
import AudioFiles
import Foundation
import KaraokeRoom
import Scoring
import SongFormats
import Testing

/// A full mix (the original singer in the centre of the backing, as most UltraStar songs ship
/// their `#MP3`) played in a room where nobody sings: the speakers sing the song's notes, and
/// the bleed reference — what the speakers really played, with or without vocal reduction —
/// must keep that from scoring. Offline (`karaoke score`'s path), no PulseAudio.
@Suite struct FullMixBleedTests {
    static let rate = 48_000.0
    static let span = 32.0

    /// A song folder: the demo's notes, and `mix.wav` = the demo backing spread to stereo (left
    /// as is, right 15 ms later) with a synthesised singer on the notes in the centre.
    static func fullMixSong() throws -> (folder: String, mix: TrackSource, voice: [Float]) {
        let demo = PulseAudioTests.LiveScoringEndToEndTests.packageRoot.appendingPathComponent("songs/demo").path
        let song = try SongFileReader.read(path: demo + "/demo.txt")
        let decoded = try AudioFile.read(path: demo + "/backing.ogg")
        let band = Resampler.resample(decoded.mono(), from: decoded.sampleRate, to: rate)
        let n = Int((span + 1) * rate)
        let voice = PulseAudioTests.LiveScoringEndToEndTests.singer(for: song, key: 0, seconds: span + 1, rate: rate)
        let haas = Int(0.015 * rate)
        var left = [Float](repeating: 0, count: n), right = left
        for i in 0..<n {
            let v = i < voice.count ? voice[i] : 0
            left[i] = 0.5 * (i < band.count ? band[i] : 0) + v
            right[i] = 0.5 * (i >= haas && i - haas < band.count ? band[i - haas] : 0) + v
        }
        let folder = NSTemporaryDirectory() + "full-mix-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: demo + "/demo.txt", encoding: .utf8)
            .replacingOccurrences(of: "#MP3:backing.ogg", with: "#MP3:mix.wav")
            .replacingOccurrences(of: "#VOCALS:vocals.ogg\n", with: "")
        try text.write(toFile: folder + "/demo.txt", atomically: true, encoding: .utf8)
        var interleaved = [Float](repeating: 0, count: 2 * n)
        for i in 0..<n { interleaved[2 * i] = left[i]; interleaved[2 * i + 1] = right[i] }
        try AudioFile.write(AudioBuffer(samples: interleaved, sampleRate: rate, channels: 2), to: folder + "/mix.wav", format: .wavFloat)
        return (folder, TrackSource(left: left, right: right, sampleRate: rate), voice)
    }

    /// What one microphone hears of the speakers: 0.6 L + 0.4 R as the renderer fed them, 30 ms late.
    static func bleed(_ track: TrackSource, reduce: Bool) -> [Float] {
        let renderer = PlaybackRenderer.playing(track, reduce: reduce)
        let n = Int(span * rate), late = Int(0.03 * rate), block = 4800
        var out = [Float](repeating: 0, count: 2 * block), mic = [Float](repeating: 0, count: n)
        var at = 0
        while at < n {
            out.withUnsafeMutableBufferPointer { renderer.render(into: $0.baseAddress!, frames: block) }
            for i in 0..<block where at + i + late < n { mic[at + i + late] = 0.6 * out[2 * i] + 0.4 * out[2 * i + 1] }
            at += block
        }
        return mic
    }

    static func score(_ recording: [Float], folder: String, reference: BackingReference) throws -> Double {
        let wav = NSTemporaryDirectory() + "full-mix-take-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: wav) }
        try AudioFile.write(AudioBuffer(samples: recording, sampleRate: rate, channels: 1), to: wav)
        let located = try SongLocator.locate(folder)
        let result = try OfflineScorer(pitchSource: DetectorPitchSource()).score(
            song: located.song, recordingPath: wav,
            options: OfflineScoringOptions(configuration: ScoringConfiguration(difficulty: .medium, micDelay: 0), backing: reference)).result
        return result.lines.filter { $0.lineIndex < 5 }.reduce(0) { $0 + $1.score + $1.bonus }
    }

    @Test func aSilentSingerDoesNotScoreFromTheSpeakersWithOrWithoutVocalReduction() throws {
        let (folder, mix, voice) = try Self.fullMixSong()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let located = try SongLocator.locate(folder)
        func reference(_ reduce: Bool) -> BackingReference {
            .choose(disabled: false, file: nil, songBacking: located.backingTrackPath, keySemitones: 0, tempo: 1, vocalReduction: reduce)
        }
        let alone = try Self.score(Array(voice.prefix(Int(Self.span * Self.rate))), folder: folder, reference: .none)
        let full = Self.bleed(mix, reduce: false), reduced = Self.bleed(mix, reduce: true)
        // Without any reference the full mix's own singer scores: the test can fail.
        let fullUnsuppressed = try Self.score(full, folder: folder, reference: .none)
        let fullSuppressed = try Self.score(full, folder: folder, reference: reference(false))
        let reducedUnsuppressed = try Self.score(reduced, folder: folder, reference: .none)
        let reducedSuppressed = try Self.score(reduced, folder: folder, reference: reference(true))
        print("full mix, first five lines: a singer alone \(Int(alone)); nobody singing: speakers (full mix) \(Int(fullUnsuppressed)) without a reference, \(Int(fullSuppressed)) with it; speakers (vocal-reduced) \(Int(reducedUnsuppressed)) without a reference, \(Int(reducedSuppressed)) with the reduced reference")
        #expect(fullUnsuppressed > 0.5 * alone, "the full mix's singer must be heard without a reference")
        #expect(fullSuppressed <= 0.05 * alone)
        // Vocal reduction alone leaves the speakers scoring (the band's own melody and what is
        // left of the vocal); the reference must take most of that away.
        #expect(reducedSuppressed < 0.5 * reducedUnsuppressed)
        // The reduced output is anti-phase between the speakers above the bass and a microphone
        // hears L and R in its own ratio (here 0.6/0.4): the suppressor fits it from both played
        // channels (the mono reference and the side). With the mono reference alone this read
        // 284 of 2951 (docs/audio-engine.md).
        #expect(reducedSuppressed <= 0.05 * alone, "vocal-reduced speakers, nobody singing: \(reducedSuppressed)")
        // A singer in front of the same speakers keeps the score: the two-channel fit takes the
        // speakers away, not the voice.
        let singing = zip(reduced, voice).map { $0 + $1 }
        let singingSuppressed = try Self.score(singing, folder: folder, reference: reference(true))
        print("full mix, vocal-reduced speakers with a singer: \(Int(singingSuppressed)) with the reduced reference (singer alone \(Int(alone)))")
        #expect(singingSuppressed >= 0.9 * alone, "a singer over vocal-reduced speakers: \(singingSuppressed) of \(alone)")
    }
}
