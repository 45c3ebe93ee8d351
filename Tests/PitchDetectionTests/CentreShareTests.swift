import Foundation
import Testing
@testable import PitchDetection

/// The main window's centre-share test: low enough for a note's first frames, still a wall
/// between a note and the silence after it.
@Suite struct CentreShareTests {
    /// Silence, then a vowel (8 harmonics) rising over 40 ms, held, stopping dead; a noise floor
    /// 50 dB under it.
    private static func note(_ f0: Double, rate: Double) -> (signal: [Float], start: Double, end: Double) {
        let start = 0.3, end = 0.7
        var signal = TestSignals.noise(count: Int(1.0 * rate), amplitude: 0.0003)
        let vowel = TestSignals.harmonic(seconds: end - start, rate: rate) { _ in f0 }
        let first = Int(start * rate)
        for (i, v) in vowel.enumerated() {
            signal[first + i] += Float(min(1, pow(Double(i) / rate / 0.04, 2))) * v
        }
        return (signal, start, end)
    }

    @Test(arguments: [165.0, 262.0, 392.0])
    func aNotesFirstFramesAreVoicedByTheMainWindowAlone(f0: Double) {
        let rate = 48_000.0
        let (signal, start, _) = Self.note(f0, rate: rate)
        var mainOnly = PitchDetectorConfiguration()
        mainOnly.shortWindowMinFrequency = 0
        let first = PitchDetector(sampleRate: rate, configuration: mainOnly).analyze(signal)
            .filter { $0.time >= start + 0.0099 && $0.time <= start + 0.1 }
        let missed = first.filter { !$0.isVoiced || abs(TestSignals.cents($0.frequency, f0)) > 50 }
        #expect(missed.isEmpty, "missed at \(missed.map { String(format: "%.2f s", $0.time) })")
        // At the old share (0.12) the first of them were left unvoiced.
        mainOnly.centreEnergyRatio = 0.12
        let strict = PitchDetector(sampleRate: rate, configuration: mainOnly).analyze(signal)
            .filter { $0.time >= start + 0.0099 && $0.time <= start + 0.1 }
        #expect(strict.contains { !$0.isVoiced })
    }

    @Test(arguments: [165.0, 262.0, 392.0])
    func aNoteDoesNotLeakIntoTheSilenceAfterIt(f0: Double) {
        let rate = 48_000.0
        let (signal, _, end) = Self.note(f0, rate: rate)
        let after = PitchDetector(sampleRate: rate).analyze(signal).filter { $0.time >= end + 0.01 }
        let leaked = after.filter(\.isVoiced)
        #expect(leaked.isEmpty, "voiced at \(leaked.map(\.time))")
    }
}
