import CFFTW

/// Removes the known backing track from the microphone's power spectrum before pitch analysis.
///
/// Method: magnitude spectral subtraction with an adaptively estimated bleed path.
/// The backing window (delay-aligned by `DelayEstimator`) is transformed with the same
/// window and FFT as the microphone. Per bin, the path's power gain is estimated as
/// `|H(k)|² = |E[M·B*]|² / E[|B|²]²` (recursive averages over frames; the voice is
/// uncorrelated with the backing, so its cross term averages out, and a small residual
/// misalignment only rotates the phase of `E[M·B*]`, which the magnitude ignores). Then
/// `|V|² = max(|M|² − β·|H|²·|B|², floor·|M|²)`: the over-subtraction β removes the bleed's
/// fluctuations too, the floor keeps the spectrum from going to zero (musical noise).
/// Chosen over an NLMS echo canceller because it adds no latency, costs one FFT per frame
/// (an NLMS filter covering a 250 ms path is ~4000 taps per sample) and does not need the
/// phase of the path to stay exact while the singer moves.
final class BleedSuppressor {
    private let fft: RealFFT
    private let window: UnsafePointer<Float>
    private let length: Int
    private let crossRe: UnsafeMutablePointer<Float>
    private let crossIm: UnsafeMutablePointer<Float>
    private let backingPower: UnsafeMutablePointer<Float>
    private let tail: UnsafeMutablePointer<Float>
    private let cleaned: UnsafeMutablePointer<Float>
    /// The microphone's power before suppression and what is left of it (≥ 0), last frame.
    private let original: UnsafeMutablePointer<Float>
    private var active = false
    private let tailDecay: Float
    private let tailWeight: Float
    private let smoothing: Float
    private let overSubtraction: Float
    private let floor: Float

    init(fftSize: Int, window: UnsafePointer<Float>, length: Int, configuration: BleedConfiguration) {
        fft = RealFFT(size: fftSize)
        self.window = window
        self.length = length
        let bins = fftSize / 2 + 1
        crossRe = .allocate(capacity: bins)
        crossIm = .allocate(capacity: bins)
        backingPower = .allocate(capacity: bins)
        crossRe.initialize(repeating: 0, count: bins)
        crossIm.initialize(repeating: 0, count: bins)
        backingPower.initialize(repeating: 0, count: bins)
        tail = .allocate(capacity: bins)
        tail.initialize(repeating: 0, count: bins)
        cleaned = .allocate(capacity: bins)
        cleaned.initialize(repeating: 0, count: bins)
        original = .allocate(capacity: bins)
        original.initialize(repeating: 0, count: bins)
        tailDecay = configuration.tailDecay
        tailWeight = configuration.tailWeight
        smoothing = configuration.transferSmoothing
        overSubtraction = configuration.overSubtraction
        floor = configuration.spectralFloor
    }

    deinit {
        crossRe.deallocate()
        crossIm.deallocate()
        backingPower.deallocate()
        tail.deallocate()
        cleaned.deallocate()
        original.deallocate()
    }

    /// - Parameters:
    ///   - micSpectrum: the microphone window's spectrum (same window, same FFT size).
    ///   - micPower: its power spectrum, cleaned in place.
    ///   - backing: the delay-aligned backing window, `length` samples.
    /// - Returns: the share of the microphone's power left after suppression (1 when the
    ///   backing is silent): a frame that is mostly bleed cannot be a sung note.
    @discardableResult
    func suppress(micSpectrum: UnsafePointer<fftwf_complex>, micPower: UnsafeMutablePointer<Float>, backing: UnsafePointer<Float>) -> Float {
        let input = fft.input
        var energy: Float = 0
        for i in 0..<length {
            let v = backing[i] * window[i]
            input[i] = v
            energy += v * v
        }
        for i in length..<fft.size { input[i] = 0 }
        active = energy > 1e-10
        guard active else { return 1 }
        fft.forward()
        let a = smoothing, oneMinusA = 1 - smoothing
        var before: Float = 0, after: Float = 0, bleedTotal: Float = 0
        let d = tailDecay, oneMinusD = 1 - tailDecay
        for k in 0..<fft.bins {
            let (br, bi) = fft.spectrum[k]
            let (mr, mi) = micSpectrum[k]
            let pb = br * br + bi * bi
            crossRe[k] = a * crossRe[k] + oneMinusA * (mr * br + mi * bi)
            crossIm[k] = a * crossIm[k] + oneMinusA * (mi * br - mr * bi)
            backingPower[k] = a * backingPower[k] + oneMinusA * pb
            let sbb = backingPower[k]
            before += micPower[k]
            original[k] = micPower[k]
            guard sbb > 1e-20 else { cleaned[k] = micPower[k]; continue }
            let gain = (crossRe[k] * crossRe[k] + crossIm[k] * crossIm[k]) / (sbb * sbb)
            let direct = gain * pb
            tail[k] = d * tail[k] + oneMinusD * direct
            let bleedPower = max(direct, tailWeight * tail[k])
            bleedTotal += bleedPower
            cleaned[k] = micPower[k] - overSubtraction * bleedPower
        }
        // A spectrally flat floor: what is left of the bleed looks like noise, not like the
        // backing's harmonics, so a frame with no voice in it has no periodicity left.
        let flat = floor * bleedTotal / Float(fft.bins)
        for k in 0..<fft.bins {
            micPower[k] = max(cleaned[k], flat)
            cleaned[k] = max(cleaned[k], 0)
            after += micPower[k]
        }
        return before > 0 ? after / before : 1
    }

    /// Share of the microphone's power at the harmonics of `lag` (period in analysis samples)
    /// that is not explained by the bleed, in the last suppressed frame (1 without a backing).
    /// A period the voice sings has power of its own at its harmonics even when the backing is
    /// louder overall; a period that only the backing (or its reverberation) carries has none.
    func harmonicVoiceShare(lag: Float) -> Float {
        guard active, lag > 0 else { return 1 }
        let spacing = Float(fft.size) / lag
        var voice: Float = 0, total: Float = 0
        var h: Float = 1
        while true {
            let centre = Int((h * spacing).rounded())
            if centre + 2 >= fft.bins { break }
            for k in max(0, centre - 2)...(centre + 2) {
                voice += cleaned[k]
                total += original[k]
            }
            h += 1
        }
        return total > 0 ? voice / total : 1
    }

    func reset() {
        crossRe.update(repeating: 0, count: fft.bins)
        crossIm.update(repeating: 0, count: fft.bins)
        backingPower.update(repeating: 0, count: fft.bins)
        tail.update(repeating: 0, count: fft.bins)
    }
}
