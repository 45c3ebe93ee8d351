@testable import AudioEngine
import AudioFiles
import Foundation
import KaraokeRoom
import PitchDetection
import Scoring
import SongFormats
import SongModel
import Testing

/// The demo song at key +2; a synthesised singer follows the shifted melody into `mic_sink`;
/// the live pipeline (capture ring → pitch worker → media time → session) must score each
/// line like offline scoring of the very same signal.
extension PulseAudioTests {
@Suite struct LiveScoringEndToEndTests {
    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: ".")
    }

    /// Sines on every pitched syllable of part 0, shifted by `key`, with 5 ms fades.
    static func singer(for song: Song, key: Int, seconds: Double, rate: Double) -> [Float] {
        var out = [Float](repeating: 0, count: Int(seconds * rate))
        for line in song.parts[0].lines {
            for syllable in line.syllables {
                guard let note = syllable.note, note.kind != .freestyle, syllable.end <= seconds else { continue }
                let hz = MusicalPitch.hz(fromMidi: Double(note.midi + key))
                let start = Int(syllable.start * rate), end = Int(syllable.end * rate)
                let fade = Int(0.005 * rate)
                var phase = 0.0
                for i in start..<min(end, out.count) {
                    let k = i - start, remaining = end - i
                    let gain = min(1, Double(min(k, remaining)) / Double(fade))
                    out[i] = Float(0.3 * gain * sin(phase))
                    phase += 2 * Double.pi * hz / rate
                }
            }
        }
        return out
    }

    @Test func liveLineScoresMatchOfflineScoring() throws {
        let root = Self.packageRoot.appendingPathComponent("songs/demo")
        let song = try SongFileReader.read(path: root.appendingPathComponent("demo.txt").path)
        let key = 2
        let span = 32.0
        let rate = 48_000.0
        let voice = Self.singer(for: song, key: key, seconds: span + 1, rate: rate)

        // Offline: the same signal, its sample index is its media time.
        var offline = try ScoringSession(song: song, configuration: ScoringConfiguration(keyShift: key, micDelay: 0))
        offline.feed(contentsOf: DetectorPitchSource().pitchSamples(of: voice, sampleRate: rate))
        let offlineLines = offline.advance(to: span)

        // Live. The singer rides on the right channel of the played track and the "mic" is that
        // channel of speaker.monitor (a remap source), so the singer shares the backing's stream:
        // a separate singer stream drifts against the backing whenever either underruns on a
        // loaded CI box. The voice is synthesised at the song's key and shifted +2 by the live
        // stretcher, like the backing on the left.
        let module = try pactl(["load-module", "module-remap-source", "source_name=singer_mic", "master=speaker.monitor",
                                "master_channel_map=front-right", "channel_map=mono", "channels=1"])
        defer { _ = try? pactl(["unload-module", module]) }
        let decoded = try AudioFile.read(path: root.appendingPathComponent("backing.ogg").path)
        let head = AudioBuffer(samples: Array(decoded.samples.prefix(Int((span + 1.5) * decoded.sampleRate) * decoded.channels)),
                               sampleRate: decoded.sampleRate, channels: decoded.channels)
        var left = Resampler.resample(head, to: rate).mono()
        let unshifted = Self.singer(for: song, key: 0, seconds: span + 1, rate: rate)
        var right = unshifted
        let n = min(left.count, right.count)
        left = Array(left.prefix(n)); right = Array(right.prefix(n))
        let backing = try PlaybackEngine(configuration: .init(device: "speaker"))
        defer { backing.close() }
        let capture = try CaptureEngine(configuration: .init(source: "singer_mic"))
        defer { capture.close() }
        backing.load(track: TrackSource(left: left, right: right, sampleRate: rate))
        backing.setKey(semitones: key)
        let micDelay = 0.0
        let session = try ScoringSession(song: song, configuration: ScoringConfiguration(keyShift: key, micDelay: micDelay))
        let lines = EventLog<LineResult>()
        let scorer = LiveScorer(session: session, channel: capture.channels[0], clock: backing.clock) { lines.append($0) }
        scorer.start()
        backing.play()
        while backing.position < span + micDelay + 0.3 { Thread.sleep(forTimeInterval: 0.05) }
        _ = scorer.stop()

        let live = lines.all
        print("mic delay \(micDelay * 1000) ms; live \(live.map { Int($0.score) }) offline \(offlineLines.map { Int($0.score) })")

        #expect(offlineLines.count >= 4)
        // Live line scores match offline scoring of the same synthesised voice. Offline hears the
        // voice synthesised at +2; live hears it shifted +2 by the real-time stretcher, whose note
        // onsets can cost a beat now and then: allow 10 % of a line, 3 % of the whole.
        #expect(live.count == offlineLines.count, "live closed \(live.count) lines, offline \(offlineLines.count)")
        for (l, o) in zip(live, offlineLines) {
            #expect(l.lineIndex == o.lineIndex)
            #expect(abs(l.score - o.score) <= max(0.10 * o.maxScore, 1), "line \(o.lineIndex) '\(o.text)': live \(l.score) offline \(o.score) of \(o.maxScore)")
        }
        let liveTotal = live.reduce(0) { $0 + $1.score }, offlineTotal = offlineLines.reduce(0) { $0 + $1.score }
        #expect(abs(liveTotal - offlineTotal) <= 0.03 * offlineLines.reduce(0) { $0 + $1.maxScore }, "live \(liveTotal) offline \(offlineTotal)")
        // The synthesised singer is in tune: both should score well, which makes the match meaningful.
        #expect(offlineLines.reduce(0) { $0 + $1.score } > 0.8 * offlineLines.reduce(0) { $0 + $1.maxScore })
    }
}
}
