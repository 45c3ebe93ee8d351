import Foundation
import Testing
@testable import PitchDetection

/// A voice whose first formant sits on its 2nd harmonic (a man singing G3…G4 on an open vowel:
/// traced on the room evaluation's en+m3 singer at 220 and 384 Hz) is almost sinusoidal at twice
/// its pitch, so YIN's first dip is the octave above. Its true period is clearly more periodic than
/// that dip (0.96–0.99 against 0.90–0.93), which `PeakPicking.harmonicReading` checks at any pitch.
@Suite struct OctaveReadingTests {
    private static func voice(_ f0: Double, rate: Double, partials: [(number: Double, amplitude: Double)]) -> (signal: [Float], truth: (Double) -> Double) {
        let truth: (Double) -> Double = { t in f0 * pow(2, 25 * sin(2 * Double.pi * 5.5 * t) / 1200) }
        // 0.2 s of silence, then the note with a 30 ms rise (the octave guard then starts from
        // the note's first voiced frame, as it does after every rest)
        let note = TestSignals.partials(partials, seconds: 0.8, rate: rate, phaseStep: 0.4, pitch: truth)
        let signal = [Float](repeating: 0, count: Int(0.2 * rate))
            + note.enumerated().map { i, v in Float(0.1 * min(1, Double(i) / rate / 0.03) * v) }
        return (signal, { truth($0 - 0.2) })
    }

    /// The traced vowel: a weak fundamental, the 2nd harmonic strong, a little of the rest. Its
    /// period is 0.09 more periodic than the first dip at half of it: under the 0.10 the
    /// harmonic-reading check asks of multiples ×3…×6, over the octave check's 0.05 and the octave
    /// guard's 0.08 (which holds a continuing reading unless the other octave beats it by more).
    private static let secondHarmonicVowel: [(number: Double, amplitude: Double)] = [(1, 0.19), (2, 1), (3, 0.13), (4, 0.3), (5, 0.08), (6, 0.1)]

    private static func shareOnPitch(_ f0: Double, rate: Double, partials: [(number: Double, amplitude: Double)], configuration: PitchDetectorConfiguration = .init()) -> Double {
        let (signal, truth) = voice(f0, rate: rate, partials: partials)
        let frames = PitchDetector(sampleRate: rate, configuration: configuration).analyze(signal)
            .filter { $0.time > 0.25 && $0.time < 0.95 }
        let right = frames.filter { $0.isVoiced && abs(TestSignals.cents($0.frequency, truth($0.time))) <= 50 }
        return Double(right.count) / Double(frames.count)
    }

    @Test(arguments: [44_100.0, 48_000.0], [196.0, 220.0, 262.0, 294.0, 350.0, 384.0, 440.0, 470.0])
    func aVoiceReadAtItsSecondHarmonicIsMovedToItsPitch(rate: Double, f0: Double) {
        let share = Self.shareOnPitch(f0, rate: rate, partials: Self.secondHarmonicVowel)
        #expect(share >= 0.95, "\(share) of frames on pitch")
        // Without the octave check (only the 0.10 of multiples ×3…×6), and without the magnitudes'
        // (which read this vowel right too), it is read an octave up.
        var off = PitchDetectorConfiguration()
        off.octaveReadingMargin = 10
        off.magnitudeOctaveMargin = 10
        let before = Self.shareOnPitch(f0, rate: rate, partials: Self.secondHarmonicVowel, configuration: off)
        #expect(before <= 0.5, "\(before) of frames on pitch without the check")
    }

    /// A man's /o/ at G3 (traced on the en+m3 singer at 193–220 Hz): the 2nd harmonic strong, the
    /// fundamental a third of it, and a cluster at the 8th–12th (the second and third formants).
    /// YIN's first dip is a formant lobe beside half the period, so the period is 5–8 % away from
    /// twice the dip, outside the ±4 % searched for multiples ×3…×6.
    private static let lobedOVowel: [(number: Double, amplitude: Double)] =
        [(1, 0.3), (2, 1), (3, 0.04), (8, 0.12), (9, 0.22), (11, 0.15), (12, 0.1)]

    @Test(arguments: [44_100.0, 48_000.0], [193.0, 205.0, 216.0, 220.0])
    func aLowVoiceReadAtALobeBesideItsSecondHarmonicIsMovedToItsPitch(rate: Double, f0: Double) {
        let share = Self.shareOnPitch(f0, rate: rate, partials: Self.lobedOVowel)
        #expect(share >= 0.95, "\(share) of frames on pitch")
    }

    /// n(τ) with peaks of the given heights at 20, 40 and 60 lags (raised-cosine bumps on 0.2).
    private static func periodicity(atL: Float, at2L: Float, at3L: Float) -> [Float] {
        (0..<130).map { k in
            var n: Float = 0.2
            for (centre, height) in [(20, atL), (40, at2L), (60, at3L)] where abs(k - centre) < 6 {
                n += (height - 0.2) * Float(0.5 * (1 + cos(Double.pi * Double(k - centre) / 6)))
            }
            return k == 0 ? 1 : n
        }
    }

    private static func reading(atL: Float, at2L: Float, at3L: Float) -> Float? {
        let n = periodicity(atL: atL, at2L: at2L, at3L: at3L)
        return n.withUnsafeBufferPointer {
            PeakPicking.harmonicReading(
                PeriodCandidate(lag: 20, clarity: atL), normalised: $0.baseAddress!, minLag: 1000, maxLag: 110,
                margin: 0.10, octaveMargin: 0.05)?.lag
        }
    }

    @Test func anOctaveWinningNarrowlyMustAlsoBeatThreeTimesThePeriod() {
        // 2·L beats L by 0.07 but so does 3·L: every multiple of L gained (a transition of a voice
        // at L), and L stands.
        #expect(Self.reading(atL: 0.85, at2L: 0.92, at3L: 0.91) == nil)
        // 3·L = 1.5 × 2·L is clearly less periodic: 2·L is the period.
        let octave = Self.reading(atL: 0.85, at2L: 0.92, at3L: 0.80)
        #expect(octave.map { abs($0 - 40) < 0.5 } == true, "read \(String(describing: octave))")
        // An octave beating L by more than the other multiples' margin needs nothing more.
        let clear = Self.reading(atL: 0.85, at2L: 0.97, at3L: 0.96)
        #expect(clear.map { abs($0 - 40) < 0.5 } == true, "read \(String(describing: clear))")
    }

    @Test(arguments: [44_100.0, 48_000.0], [262.0, 330.0, 392.0, 523.0, 700.0, 768.0, 880.0, 1040.0])
    func aVoiceWithFallingHarmonicsStaysWhereItIs(rate: Double, f0: Double) {
        // An alto's or a soprano's notes with the usual falling harmonics: twice the period is never
        // more periodic than the period by the margin (vibrato decorrelates the longer lag).
        let partials: [(number: Double, amplitude: Double)] = (1...6).map { (Double($0), 1 / Double($0)) }
        let share = Self.shareOnPitch(f0, rate: rate, partials: partials)
        #expect(share >= 0.95, "\(share) of frames on pitch")
    }

    /// A man's open vowel on G4…B4 with his first formant on the 2nd harmonic and the odd harmonics
    /// weaker still than in `secondHarmonicVowel` (the low cut takes a little more of the
    /// fundamental): they hold 2 % of the power, so the period beats half of it by only 0.03–0.04
    /// in the power autocorrelation, under the octave check's 0.05. On magnitudes they weigh 15 %,
    /// and the period wins by 0.2 or more (`MagnitudeOctave`).
    private static let weakOddVowel: [(number: Double, amplitude: Double)] = [(1, 0.12), (2, 1), (3, 0.08), (4, 0.3), (5, 0.05), (6, 0.1)]

    @Test(arguments: [44_100.0, 48_000.0], [330.0, 385.0, 440.0, 494.0])
    func aVoiceWhoseOddHarmonicsAreWeakIsReadAtItsPitchFromTheMagnitudes(rate: Double, f0: Double) {
        let share = Self.shareOnPitch(f0, rate: rate, partials: Self.weakOddVowel)
        #expect(share >= 0.95, "\(share) of frames on pitch")
        var off = PitchDetectorConfiguration()
        off.magnitudeOctaveMargin = 10
        let before = Self.shareOnPitch(f0, rate: rate, partials: Self.weakOddVowel, configuration: off)
        #expect(before <= 0.5, "\(before) of frames on pitch without the magnitudes")
    }

    @Test(arguments: [44_100.0, 48_000.0], [262.0, 392.0, 523.0, 700.0, 880.0])
    func aVoiceWithFallingHarmonicsIsNotMovedAnOctaveDownByTheMagnitudes(rate: Double, f0: Double) {
        // Nothing at half the frequency: the magnitudes' n(2L) is under their n(L), as the power's.
        let partials: [(number: Double, amplitude: Double)] = (1...6).map { (Double($0), 1 / Double($0)) }
        var strict = PitchDetectorConfiguration()
        strict.magnitudeOctaveMargin = 0
        let share = Self.shareOnPitch(f0, rate: rate, partials: partials, configuration: strict)
        #expect(share >= 0.95, "\(share) of frames on pitch with no magnitude margin at all")
    }
}
