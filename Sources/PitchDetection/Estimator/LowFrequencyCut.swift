import Foundation

/// A first-order high-pass (6 dB/octave below `cutoff`) applied to the analysis signal.
///
/// A loud bass line (backing bleed, hum, handling noise) would otherwise impose the common
/// period of voice + bass on the autocorrelation; after the cut, the voice's period is carried
/// by its harmonics (YIN finds the "missing fundamental"). It is done in the time domain, not
/// as a spectral weight, because tilting the power spectrum shifts a lone low fundamental's
/// main lobe upwards (a 65 Hz sine read as 69 Hz); a filter only scales each partial.
struct LowFrequencyCut {
    private let coefficient: Float
    private var previousInput: Float = 0
    private var previousOutput: Float = 0

    /// - Parameters:
    ///   - cutoff: −3 dB frequency in Hz (0 disables the filter).
    ///   - rate: sample rate in Hz.
    init(cutoff: Double, rate: Double) {
        if cutoff <= 0 {
            coefficient = 1
        } else {
            let rc = 1 / (2 * Double.pi * cutoff)
            coefficient = Float(rc / (rc + 1 / rate))
        }
    }

    @inline(__always)
    mutating func process(_ x: Float) -> Float {
        if coefficient == 1 { return x }
        let y = coefficient * (previousOutput + x - previousInput)
        previousInput = x
        previousOutput = y
        return y
    }

    mutating func reset() {
        previousInput = 0
        previousOutput = 0
    }
}
