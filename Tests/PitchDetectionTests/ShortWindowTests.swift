import Foundation
import Testing
@testable import PitchDetection

/// The short second window (`ShortWindow`) re-reads the frames the 46 ms main window leaves
/// unvoiced at a note's edges: a sung syllable starts from a consonant, rises over ~40 ms with a
/// scoop into the pitch, and falls over ~60 ms, and the main window then spans the consonant or
/// the silence as well as the vowel.
@Suite struct ShortWindowTests {
    /// A syllable as the room evaluation's singers sing it: 70 ms of a sibilant's noise about as
    /// loud as the vowel, then a 300 ms vowel (8 harmonics) with a 40 ms rise, a 60 ms fall and a
    /// −50 cent scoop (40 ms time constant), then 250 ms of silence. (After a consonant 15 dB
    /// under the vowel, the main window alone voices every frame since its centre share is 0.05.)
    private static func syllable(_ f0: Double, rate: Double) -> (signal: [Float], vowelStart: Double, truth: (Double) -> Double) {
        let lead = 0.25, consonant = 0.07, vowel = 0.3
        let vowelStart = lead + consonant
        let truth: (Double) -> Double = { t in f0 * pow(2, -50 * exp(-(t - vowelStart) / 0.04) / 1200) }
        var signal = [Float](repeating: 0, count: Int(lead * rate))
        signal += TestSignals.noise(count: Int(consonant * rate), amplitude: 0.2)
        var phase = 0.0
        for i in 0..<Int(vowel * rate) {
            let t = Double(i) / rate
            phase += 2 * Double.pi * truth(vowelStart + t) / rate
            var v = 0.0
            for k in 1...8 { v += sin(Double(k) * phase) / Double(k) }
            let envelope = min(1, pow(t / 0.04, 2)) * min(1, pow((vowel - t) / 0.06, 2))
            signal.append(Float(0.3 * envelope * v / 2.7179))
        }
        signal += [Float](repeating: 0, count: Int(0.25 * rate))
        return (signal, vowelStart, truth)
    }

    @Test(arguments: [44_100.0, 48_000.0], [165.0, 220.0, 311.0, 440.0])
    func aSyllableIsVoicedFromItsFirstSungFramesToItsLast(rate: Double, f0: Double) {
        let (signal, start, truth) = Self.syllable(f0, rate: rate)
        // From 10 ms into the vowel to 20 ms before its end (the fall is then 14 dB down).
        let inside = { (frame: PitchFrame) in frame.time >= start + 0.0099 && frame.time <= start + 0.2801 }
        let frames = PitchDetector(sampleRate: rate).analyze(signal).filter(inside)
        let missed = frames.filter { !$0.isVoiced || abs(TestSignals.cents($0.frequency, truth($0.time))) > 50 }
        #expect(missed.isEmpty, "missed at \(missed.map { String(format: "%.2f s: %.0f Hz", $0.time, $0.frequency) })")

        // The main window alone leaves the first of them unvoiced (the consonant and the rise
        // share its 46 ms): what the short window is for.
        var mainOnly = PitchDetectorConfiguration()
        mainOnly.shortWindowMinFrequency = 0
        let before = PitchDetector(sampleRate: rate, configuration: mainOnly).analyze(signal).filter(inside)
        #expect(before.contains { !$0.isVoiced }, "the main window alone voiced every frame")
    }

    @Test(arguments: [(0.0, 0.0), (1_200.0, 0.98), (2_500.0, 0.98)])
    func consonantNoiseStaysUnvoiced(centre: Double, pole: Double) {
        // White noise, and noise through a formant-like resonance: 21 ms of such noise is more
        // often periodic by chance than 46 ms, which `shortWindowClarity` keeps out.
        let rate = 48_000.0
        var noise = TestSignals.noise(count: Int(4 * rate), amplitude: 0.05, seed: 7)
        if centre > 0 {
            let w = 2 * Double.pi * centre / rate
            var y1 = 0.0, y2 = 0.0, peak = 0.0
            var shaped = [Double](repeating: 0, count: noise.count)
            for i in noise.indices {
                let y = Double(noise[i]) + 2 * pole * cos(w) * y1 - pole * pole * y2
                y2 = y1; y1 = y
                shaped[i] = y
                peak = max(peak, abs(y))
            }
            noise = shaped.map { Float(0.1 * $0 / peak) }
        }
        let voiced = PitchDetector(sampleRate: rate).analyze(noise).filter(\.isVoiced).count
        var mainOnly = PitchDetectorConfiguration()
        mainOnly.shortWindowMinFrequency = 0
        let voicedByMain = PitchDetector(sampleRate: rate, configuration: mainOnly).analyze(noise).filter(\.isVoiced).count
        let frames = noise.count / 480
        // At most 1 % of the frames more than the main window alone voices.
        #expect(voiced <= voicedByMain + frames / 100, "\(voiced) of \(frames) frames voiced (main window alone: \(voicedByMain))")
    }
}
