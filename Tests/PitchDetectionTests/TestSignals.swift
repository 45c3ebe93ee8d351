import Foundation

/// Deterministic synthetic signals for the detector tests.
enum TestSignals {
    static func sine(_ hz: Double, seconds: Double, rate: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<Int(seconds * rate)).map { amplitude * Float(sin(2 * Double.pi * hz * Double($0) / rate)) }
    }

    /// A sum of harmonics `harmonics` of `hz` with 1/k amplitudes, following a pitch curve.
    static func harmonic(
        seconds: Double, rate: Double, harmonics: [Int] = Array(1...8), amplitude: Float = 0.3,
        pitch: (Double) -> Double
    ) -> [Float] {
        var phase = 0.0
        var out = [Float](repeating: 0, count: Int(seconds * rate))
        let norm = harmonics.reduce(0.0) { $0 + 1 / Double($1) }
        for i in out.indices {
            let f0 = pitch(Double(i) / rate)
            phase += 2 * Double.pi * f0 / rate
            var v = 0.0
            for k in harmonics where Double(k) * f0 < rate / 2 { v += sin(Double(k) * phase) / Double(k) }
            out[i] = amplitude * Float(v / norm)
        }
        return out
    }

    /// Partials of a pitch curve at their own amplitudes (`harmonic`'s are 1/k), unscaled: the sum
    /// of amplitude · sin(number · phase + `phaseStep` · number) per sample.
    static func partials(
        _ partials: [(number: Double, amplitude: Double)], seconds: Double, rate: Double, phaseStep: Double,
        pitch: (Double) -> Double
    ) -> [Double] {
        var phase = 0.0
        return (0..<Int(seconds * rate)).map { i in
            phase += 2 * Double.pi * pitch(Double(i) / rate) / rate
            return partials.reduce(0.0) { $0 + $1.amplitude * sin($1.number * phase + phaseStep * $1.number) }
        }
    }

    /// A sung line: each of `notes` (Hz) held 0.45 s of every 0.6 s, silent in the rests;
    /// `truth(t)` is the sung pitch at t (0 in a rest or after the last note).
    static func sungLine(_ notes: [Double], rate: Double) -> (voice: [Float], truth: @Sendable (Double) -> Double, seconds: Double) {
        let truth: @Sendable (Double) -> Double = { t in
            let slot = Int(t / 0.6)
            guard slot < notes.count, t - Double(slot) * 0.6 < 0.45 else { return 0 }
            return notes[slot]
        }
        let seconds = 0.6 * Double(notes.count)
        var voice = harmonic(seconds: seconds, rate: rate) { truth($0) }
        for i in voice.indices where truth(Double(i) / rate) == 0 { voice[i] = 0 }
        return (voice, truth, seconds)
    }

    /// Seeded white noise (xorshift), uniform in ±amplitude.
    static func noise(count: Int, amplitude: Float, seed: UInt64 = 0x9E3779B97F4A7C15) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
        }
    }

    static func cents(_ a: Float, _ b: Double) -> Double { 1200 * log2(Double(a) / b) }

    /// An open vowel's partials for `partials` (the 2nd harmonic strongest).
    static let openVowel: [(number: Double, amplitude: Double)] = [(1, 0.6), (2, 1), (3, 0.5), (4, 0.3), (5, 0.15), (6, 0.1)]

    /// `x` through a room given as taps (sample delay, gain), summed in their order: the direct
    /// sound is a tap like any reflection.
    static func throughRoom(_ x: [Float], taps: [(delay: Int, gain: Float)]) -> [Float] {
        var out = [Float](repeating: 0, count: x.count)
        out.withUnsafeMutableBufferPointer { out in
            x.withUnsafeBufferPointer { x in
                for (delay, gain) in taps where delay < x.count {
                    for i in delay..<x.count { out[i] += gain * x[i - delay] }
                }
            }
        }
        return out
    }
}
