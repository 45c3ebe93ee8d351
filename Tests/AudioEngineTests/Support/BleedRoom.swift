@testable import AudioEngine
import AudioFiles
import Foundation
import KaraokeRoom
import Scoring
import SongFormats
import SongModel

/// The demo song played into a simulated room: its backing on `speaker` (the engine), and into
/// `mic_sink` a synthesised singer plus the backing as the speakers played it, attenuated —
/// the bleed — both following the engine's clock like a person and a room do.
final class BleedRoom {
    static let rate = 48_000.0
    let song: Song
    let songFolder: String
    /// Nil for a room used only for its signals (no PulseAudio).
    private let playback: PlaybackEngine?
    var engine: PlaybackEngine { playback! }
    let track: TrackSource
    /// What the room plays, rendered offline by the engine's renderer (index = media time × rate at tempo 1).
    let played: [Float]
    let voice: [Float]
    /// Bleed gain: the backing reaches the mic 6 dB under the singer's level.
    let bleedGain: Float

    init(span: Double, withEngine: Bool = true) throws {
        songFolder = PulseAudioTests.LiveScoringEndToEndTests.packageRoot.appendingPathComponent("songs/demo").path
        song = try SongFileReader.read(path: songFolder + "/demo.txt")
        let decoded = try AudioFile.read(path: songFolder + "/backing.ogg")
        let head = AudioBuffer(samples: Array(decoded.samples.prefix(Int((span + 1.5) * decoded.sampleRate) * decoded.channels)),
                               sampleRate: decoded.sampleRate, channels: decoded.channels)
        let resampled = Resampler.resample(head, to: Self.rate)
        let left = resampled.channel(0), right = resampled.channels > 1 ? resampled.channel(1) : left
        track = TrackSource(left: left, right: right, sampleRate: Self.rate)
        played = PlayedBacking.render(track)
        voice = PulseAudioTests.LiveScoringEndToEndTests.singer(for: song, key: 0, seconds: span + 1, rate: Self.rate)
        let sung = voice.filter { $0 != 0 }
        let voiceRms = Self.rms(sung), backingRms = Self.rms(Array(played.prefix(voice.count)))
        bleedGain = Float(0.5 * voiceRms / max(backingRms, 1e-9))
        playback = withEngine ? try PlaybackEngine(configuration: .init(device: "speaker")) : nil
        playback?.load(track: track)
    }

    static func rms(_ x: [Float]) -> Double {
        guard !x.isEmpty else { return 0 }
        return (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
    }

    /// What reaches the microphone, by media time: the singer (if any) plus the bleed.
    func micSignal(singing: Bool) -> [Float] {
        (0..<voice.count).map { i in (singing ? voice[i] : 0) + bleedGain * (i < played.count ? played[i] : 0) }
    }

    /// Measures the mic path's delay the way `karaoke calibrate` does (clicks sung on the beat
    /// heard, mapped through the engine's clock); leaves the engine stopped at 0 with the backing loaded.
    func calibrate(capture: CaptureEngine) throws -> Double {
        let calibrator = LatencyCalibrator(output: "speaker", inputs: ["mic"])
        let clicks = LatencyCalibrator.clickTrack(calibrator.schedule, rate: Self.rate)
        let saved = try engine.prepareTrack(backingTrack: nil, duration: Double(clicks.count) / Self.rate)
        engine.load(track: saved)
        var reader = capture.channels[0].makeReader()
        let clicker = try FollowingSinger(sink: "mic_sink", voice: clicks, rate: Self.rate, following: engine.clock)
        engine.play()
        let heard = reader.record(seconds: Double(clicks.count) / Self.rate + 0.3)
        clicker.close()
        engine.stop()
        engine.load(track: track)
        let delays = LatencyCalibrator.clickDelays(samples: heard.samples, stamps: heard.stamps, rate: Self.rate, clock: engine.clock,
                                                   schedule: calibrator.schedule).sorted()
        guard delays.count >= 6 else { throw BleedRoomError("calibration heard \(delays.count) of 8 clicks") }
        return delays[delays.count / 2]
    }

    func close() { playback?.close() }
}

struct BleedRoomError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
