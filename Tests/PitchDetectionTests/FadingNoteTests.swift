import Foundation
import Testing
@testable import PitchDetection

/// A singer letting a phrase's last vowel fade stays voiced under the level a note needs to start
/// (`holdLevelDb`), as long as the fade is slow; the reverberation after a voice stops falls
/// faster (2 dB a frame in a 0.3 s room) and is not held below that level.
@Suite struct FadingNoteTests {
    /// A 523 Hz open vowel at −30 dBFS for 0.3 s, then falling by `dbPerSecond` to −69 dBFS and
    /// held there 0.1 s, over a −80 dBFS noise floor. Returns the signal and when the level
    /// crosses −60 dBFS.
    private static func fading(dbPerSecond: Double, rate: Double) -> (signal: [Float], under60: Double, end: Double) {
        let fade = 39 / dbPerSecond
        let end = 0.2 + 0.3 + fade + 0.1
        var signal = TestSignals.noise(count: Int((end + 0.3) * rate), amplitude: 0.0001)
        let vowel = TestSignals.partials(TestSignals.openVowel, seconds: end - 0.2, rate: rate, phaseStep: 0.4) { _ in 523.25 }
        // The vowel's own RMS is about 0.9 of its unit amplitudes: scale it to −30 dBFS.
        let unit = (vowel.reduce(0) { $0 + $1 * $1 } / Double(vowel.count)).squareRoot()
        for (i, v) in vowel.enumerated() {
            let t = Double(i) / rate
            let db = -30 - dbPerSecond * min(fade, max(0, t - 0.3))
            signal[Int(0.2 * rate) + i] += Float(v / unit * pow(10, db / 20))
        }
        return (signal, 0.2 + 0.3 + 30 / dbPerSecond, end)
    }

    /// The share of the frames from the −60 dBFS crossing to the vowel's end that are voiced on its pitch.
    private static func heldShare(dbPerSecond: Double, rate: Double, holdLevel: Float) -> Double {
        let (signal, under60, end) = fading(dbPerSecond: dbPerSecond, rate: rate)
        var configuration = PitchDetectorConfiguration()
        configuration.holdLevelDb = holdLevel
        let frames = PitchDetector(sampleRate: rate, configuration: configuration).analyze(signal)
            .filter { $0.time > under60 + 0.03 && $0.time < end - 0.03 }
        let held = frames.filter { $0.isVoiced && abs(TestSignals.cents($0.frequency, 523.25)) <= 50 }
        return Double(held.count) / Double(frames.count)
    }

    @Test(arguments: [44_100.0, 48_000.0])
    func aSlowFadeStaysVoicedAQuickDecayDoesNot(rate: Double) {
        // 50 dB/s: 0.5 dB a frame, a sung diminuendo.
        let slow = Self.heldShare(dbPerSecond: 50, rate: rate, holdLevel: PitchDetectorConfiguration().holdLevelDb)
        #expect(slow >= 0.9, "\(slow) of a slow fade's frames under −60 dBFS voiced")
        let slowWithoutHold = Self.heldShare(dbPerSecond: 50, rate: rate, holdLevel: PitchDetectorConfiguration().minimumLevelDb)
        #expect(slowWithoutHold <= 0.1, "\(slowWithoutHold) of them without the level hold")
        // 200 dB/s: 2 dB a frame, the reverberation of a 0.3 s room.
        let quick = Self.heldShare(dbPerSecond: 200, rate: rate, holdLevel: PitchDetectorConfiguration().holdLevelDb)
        #expect(quick <= 0.1, "\(quick) of a quick decay's frames under −60 dBFS voiced")
    }
}
