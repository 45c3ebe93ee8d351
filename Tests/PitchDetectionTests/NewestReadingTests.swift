import Foundation
import Testing
@testable import PitchDetection

/// At a note's first frames the 46 ms main window still holds the previous note (a legato step, or
/// that note's reverberant tail) and reads it, or the two notes' common period. A voiced frame that
/// does not continue its period is therefore read again on the short window over the newest
/// samples (`PitchDetectorConfiguration.newestReading`), which hears the new note.
@Suite struct NewestReadingTests {

    /// An open vowel sung from 0.2 s for `seconds` along `pitch` (of the signal's time), over a faint
    /// noise floor, with 0.2 s of that floor after it.
    private static func sing(seconds: Double, rate: Double, pitch: @escaping (Double) -> Double) -> [Float] {
        var signal = TestSignals.noise(count: Int((0.4 + seconds) * rate), amplitude: 0.0003)
        let sung = TestSignals.partials(TestSignals.openVowel, seconds: seconds, rate: rate, phaseStep: 0.4) { pitch($0 + 0.2) }
        for (i, v) in sung.enumerated() { signal[Int(0.2 * rate) + i] += Float(0.05 * v) }
        return signal
    }

    /// A legato line (no gap between notes, the phase running on), 0.3 s a note from 0.2 s.
    /// Returns the signal and the note changes.
    private static func legato(_ notes: [Double], rate: Double) -> (signal: [Float], changes: [Double]) {
        let length = 0.3
        let signal = sing(seconds: Double(notes.count) * length, rate: rate) { t in
            notes[min(notes.count - 1, max(0, Int((t - 0.2) / length)))]
        }
        return (signal, (1..<notes.count).map { 0.2 + Double($0) * length })
    }

    /// The shares of the frames from a change to 20 ms after it read at the new note, and of the
    /// frames in the 30 ms before it read at the old one.
    private static func shares(rate: Double, newest: Bool) -> (new: Double, old: Double) {
        let notes = Self.line
        let (signal, changes) = legato(notes, rate: rate)
        var configuration = PitchDetectorConfiguration()
        configuration.newestReading = newest
        let frames = PitchDetector(sampleRate: rate, configuration: configuration).analyze(signal)
        func share(_ span: (Double) -> ClosedRange<Double>, note: (Int) -> Double) -> Double {
            var right = 0, total = 0
            for (k, change) in changes.enumerated() {
                for frame in frames where span(change).contains(frame.time) {
                    total += 1
                    if frame.isVoiced && abs(TestSignals.cents(frame.frequency, note(k))) <= 50 { right += 1 }
                }
            }
            return Double(right) / Double(total)
        }
        return (share({ ($0 - 0.0001)...($0 + 0.0201) }, note: { notes[$0 + 1] }),
                share({ ($0 - 0.0301)...($0 - 0.001) }, note: { notes[$0] }))
    }

    /// Steps of a fourth to a sixth, where the main window reads the two notes' common period.
    static let line: [Double] = [294, 392, 294, 440, 330, 440, 294, 392, 262, 392, 294]

    @Test(arguments: [44_100.0, 48_000.0])
    func aNewNotesFirstFramesAreReadAtTheNewNote(rate: Double) {
        let with = Self.shares(rate: rate, newest: true)
        #expect(with.new >= 0.9, "\(with.new) of the first frames on the new note")
        // The frames before the change are not moved to the note to come.
        #expect(with.old >= 0.95, "\(with.old) of the last frames on the old note")
        // The main window alone reads more of them at the old note or the two notes' common period.
        let without = Self.shares(rate: rate, newest: false)
        #expect(without.new <= with.new - 0.15, "\(without.new) of the first frames on the new note without the newest samples' reading")
    }

    /// Held notes joined by fast glides (1–1.5 semitones per 10 ms, a singer's portamento).
    private static func glides(rate: Double) -> (signal: [Float], pitch: (Double) -> Double, spans: [ClosedRange<Double>]) {
        // (start, from, to, glide seconds): hold `from` until the glide, reach `to` at its end.
        let steps: [(Double, Double, Double, Double)] = [(0.4, 300, 450, 0.06), (0.8, 450, 330, 0.05), (1.2, 330, 500, 0.07), (1.6, 500, 392, 0.04)]
        let pitch: (Double) -> Double = { t in
            var f = steps[0].1
            for (start, from, to, length) in steps where t >= start {
                f = t >= start + length ? to : from * pow(to / from, (t - start) / length)
            }
            return f
        }
        return (sing(seconds: 1.8, rate: rate, pitch: pitch), pitch, steps.map { $0.0...($0.0 + $0.3) })
    }

    @Test(arguments: [44_100.0, 48_000.0])
    func aGlideIsReadWhereItIsNotAhead(rate: Double) {
        let (signal, pitch, spans) = Self.glides(rate: rate)
        let frames = PitchDetector(sampleRate: rate).analyze(signal).filter { frame in spans.contains { $0.contains(frame.time) } }
        let off = frames.filter { !$0.isVoiced || abs(TestSignals.cents($0.frequency, pitch($0.time))) > 50 }
        #expect(off.isEmpty, "off pitch at \(off.map { String(format: "%.2f s: %.0f Hz for %.0f", $0.time, $0.frequency, pitch($0.time)) })")
    }
}
