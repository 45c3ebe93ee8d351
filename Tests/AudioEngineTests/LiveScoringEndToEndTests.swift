@testable import AudioEngine
import AudioFiles
import Foundation
import KaraokeRoom
import PitchDetection
import Scoring
import SongFormats
import SongModel
import Testing

/// The demo song at key +2; a synthesised singer follows the shifted melody into `mic_sink`
/// (recorded as the `mic` source), after a calibration through the same path; the live pipeline
/// (capture ring → pitch worker → media time − mic delay → session) must score each line like
/// offline scoring of the very same signal.
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
        // The singer follows the shifted melody: sines at the reference notes + 2 semitones.
        let voice = Self.singer(for: song, key: key, seconds: span + 1, rate: rate)

        // Offline: the same signal, its sample index is its media time.
        var offline = try ScoringSession(song: song, configuration: ScoringConfiguration(keyShift: key, micDelay: 0))
        offline.feed(contentsOf: DetectorPitchSource().pitchSamples(of: voice, sampleRate: rate))
        let offlineLines = offline.advance(to: span)

        let backing = try PlaybackEngine(configuration: .init(device: "speaker"))
        defer { backing.close() }
        let capture = try CaptureEngine(configuration: .init(source: "mic"))
        defer { capture.close() }

        // Calibration through the same path, as a user would run it before singing: the singer
        // "sings" clicks on the beat it hears; each click's capture stamp, mapped through the
        // backing's clock, gives the mic delay (the calibrator's own measurement).
        let calibrator = LatencyCalibrator(output: "speaker", inputs: ["mic"])
        let clicks = LatencyCalibrator.clickTrack(calibrator.schedule, rate: rate)
        backing.load(track: .silence(duration: Double(clicks.count) / rate, sampleRate: rate))
        var calibrationReader = capture.channels[0].makeReader()
        _ = capture.channels[0].samples.skip(Int.max)
        let clicker = try FollowingSinger(sink: "mic_sink", voice: clicks, rate: rate, following: backing.clock)
        backing.play()
        let heard = calibrationReader.record(seconds: Double(clicks.count) / rate + 0.3)
        clicker.close()
        let delays = LatencyCalibrator.clickDelays(samples: heard.samples, stamps: heard.stamps, rate: rate, clock: backing.clock,
                                                   schedule: calibrator.schedule).sorted()
        try #require(delays.count >= 6, "calibration heard \(delays.count) of 8 clicks")
        let micDelay = delays[delays.count / 2]
        print("calibrated mic delay \(micDelay * 1000) ms (spread \((delays.last! - delays.first!) * 1000) ms)")
        #expect(delays.last! - delays.first! < 0.02, "calibration spread \(delays)")

        // Live: the demo backing at key +2 through the real-time stretcher on `speaker`, the singer
        // following it into `mic_sink`, the live scorer reading `mic` on the backing's clock.
        let decoded = try AudioFile.read(path: root.appendingPathComponent("backing.ogg").path)
        let head = AudioBuffer(samples: Array(decoded.samples.prefix(Int((span + 1.5) * decoded.sampleRate) * decoded.channels)),
                               sampleRate: decoded.sampleRate, channels: decoded.channels)
        let resampled = Resampler.resample(head, to: rate)
        backing.stop()
        let left = resampled.channel(0), right = resampled.channels > 1 ? resampled.channel(1) : left
        backing.load(track: TrackSource(left: left, right: right, sampleRate: rate))
        backing.setKey(semitones: key)
        let session = try ScoringSession(song: song, configuration: ScoringConfiguration(keyShift: key, micDelay: micDelay))
        let lines = EventLog<LineResult>()
        let scorer = LiveScorer(session: session, channel: capture.channels[0], clock: backing.clock) { lines.append($0) }
        let singer = try FollowingSinger(sink: "mic_sink", voice: voice, rate: rate, following: backing.clock)
        defer { singer.close() }
        scorer.start()
        backing.play()
        while backing.position < span + micDelay + 0.3 { Thread.sleep(forTimeInterval: 0.05) }
        _ = scorer.stop()

        let live = lines.all
        print("live \(live.map { Int($0.score) }) offline \(offlineLines.map { Int($0.score) })")

        #expect(offlineLines.count >= 4)
        // Live line scores match offline scoring of the same synthesised voice: allow 5 % of a
        // line (a detector frame landing on the other side of a beat boundary), 2 % of the whole.
        #expect(live.count == offlineLines.count, "live closed \(live.count) lines, offline \(offlineLines.count)")
        for (l, o) in zip(live, offlineLines) {
            #expect(l.lineIndex == o.lineIndex)
            #expect(abs(l.score - o.score) <= max(0.05 * o.maxScore, 1), "line \(o.lineIndex) '\(o.text)': live \(l.score) offline \(o.score) of \(o.maxScore)")
        }
        let liveTotal = live.reduce(0) { $0 + $1.score }, offlineTotal = offlineLines.reduce(0) { $0 + $1.score }
        #expect(abs(liveTotal - offlineTotal) <= 0.02 * offlineLines.reduce(0) { $0 + $1.maxScore }, "live \(liveTotal) offline \(offlineTotal)")
        // The synthesised singer is in tune: both should score well, which makes the match meaningful.
        #expect(offlineLines.reduce(0) { $0 + $1.score } > 0.8 * offlineLines.reduce(0) { $0 + $1.maxScore })
    }
}
}
