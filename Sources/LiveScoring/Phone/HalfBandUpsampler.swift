import Foundation

/// Doubles a stream's sample rate (24 → 48 kHz) with a windowed-sinc half-band filter, so a
/// phone's audio reaches the detector at the rate of a PulseAudio microphone and the bleed
/// reference (the rendered output, 48 kHz) needs no interpolation: one detector path for both.
/// Streaming, no allocation after init; output lags input by `delay` input samples.
public struct HalfBandUpsampler {
    /// Taps per side of the odd-phase filter.
    static let halfTaps = 8
    /// Input samples the output lags by.
    public static let delay = halfTaps
    private let coefficients: [Float]
    /// The last 2 × halfTaps input samples (oldest first), zeros at the start.
    private var history: [Float]

    public init() {
        let n = Self.halfTaps
        coefficients = (0..<n).map { k in
            let t = Double(k) + 0.5
            let sinc = sin(Double.pi * t) / (Double.pi * t)
            // Blackman window over the 2n-tap odd phase.
            let x = (t + Double(n)) / Double(2 * n)
            let window = 0.42 - 0.5 * cos(2 * Double.pi * x) + 0.08 * cos(4 * Double.pi * x)
            return Float(sinc * window)
        }
        history = [Float](repeating: 0, count: 2 * n)
    }

    public mutating func reset() {
        for i in history.indices { history[i] = 0 }
    }

    /// Writes `2 × input.count` samples to `output`.
    public mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Float>) {
        let n = Self.halfTaps
        var o = 0
        for x in input {
            // Slide: history holds x[j-2n+1 ... j] after this.
            for i in 0..<(2 * n - 1) { history[i] = history[i + 1] }
            history[2 * n - 1] = x
            // Centre between history[n-1] (= x[j-n]) and history[n] (= x[j-n+1]).
            var odd: Float = 0
            for k in 0..<n { odd += coefficients[k] * (history[n - 1 - k] + history[n + k]) }
            output[o] = history[n - 1]
            output[o + 1] = odd
            o += 2
        }
    }
}
