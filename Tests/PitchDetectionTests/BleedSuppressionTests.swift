import Foundation
import Testing
@testable import PitchDetection

@Suite struct BleedSuppressionTests {
    /// A sung line (notes with rests) and a louder-than-usual backing: a bass line an octave
    /// or two under the notes plus a sustained chord, reaching the mic 25 ms late at −6 dB.
    private func mixture(rate: Double) -> (mic: [Float], backing: [Float], truth: (Double) -> Double) {
        let (voice, truth, seconds) = TestSignals.sungLine([196, 220, 247, 262, 294, 330, 294, 262], rate: rate)
        let bass = TestSignals.harmonic(seconds: seconds, rate: rate, amplitude: 0.5) { t in Int(t / 1.2) % 2 == 0 ? 98 : 110 }
        let chord = zip(TestSignals.harmonic(seconds: seconds, rate: rate, amplitude: 0.3) { _ in 392 },
                        TestSignals.harmonic(seconds: seconds, rate: rate, amplitude: 0.3) { _ in 494 }).map { $0 + $1 }
        let backing = zip(bass, chord).map { $0 + $1 }
        let rms = { (x: [Float]) -> Float in (x.reduce(0) { $0 + $1 * $1 } / Float(x.count)).squareRoot() }
        let gain = rms(voice) * pow(10, -6 / 20) / rms(backing)
        let delay = Int(0.025 * rate)
        let mic = voice.indices.map { i in voice[i] + (i >= delay ? gain * backing[i - delay] : 0) }
        return (mic, backing, truth)
    }

    /// Share of frames right about voicing and, when voiced, within 50 cents.
    private func accuracy(_ frames: [PitchFrame], truth: (Double) -> Double) -> Double {
        let judged = frames.filter { $0.time > 0.6 }  // after the first estimates settle
        let right = judged.filter { frame in
            let expected = truth(frame.time)
            if expected == 0 { return !frame.isVoiced }
            return frame.isVoiced && abs(1200 * log2(Double(frame.frequency) / expected)) <= 50
        }
        return Double(right.count) / Double(judged.count)
    }

    @Test func knowingTheBackingImprovesAccuracy() {
        let rate = 48_000.0
        let (mic, backing, truth) = mixture(rate: rate)
        let without = accuracy(PitchDetector(sampleRate: rate).analyze(mic), truth: truth)
        let with = accuracy(PitchDetector(sampleRate: rate).analyze(mic, backing: backing), truth: truth)
        #expect(with >= 0.85, "with backing: \(with)")
        #expect(with > without + 0.1, "with backing \(with), without \(without)")
    }

    @Test func silentBackingChangesNothing() {
        let rate = 16_000.0
        let signal = TestSignals.harmonic(seconds: 0.8, rate: rate) { _ in 262 }
        let plain = PitchDetector(sampleRate: rate).analyze(signal)
        let withSilence = PitchDetector(sampleRate: rate).analyze(signal, backing: [Float](repeating: 0, count: signal.count))
        #expect(plain == withSilence)
    }
}
