import CFFTW
import Foundation

/// FFT-based YIN difference function of one analysis window.
///
/// The window is Hann-weighted and zero-padded to `fft.size ≥ length + maxLag`, so
/// `IFFT(|X|²)` is the linear (not circular) autocorrelation `r(τ)`. Dividing by the window's
/// own autocorrelation `r_w(τ)` removes the taper bias (Boersma 1993), giving the normalised
/// autocorrelation `n(τ) = [r(τ)/r_w(τ)] / [r(0)/r_w(0)]` (1 at the period of a periodic signal).
/// YIN's difference is then `d(τ) = 1 − n(τ)` and its cumulative-mean-normalised form
/// `d′(τ) = d(τ) · τ / Σ_{j≤τ} d(j)` (de Cheveigné & Kawahara 2002).
///
/// Working on the power spectrum lets the bleed suppressor clean the spectrum in place
/// between `load` and `evaluate` at no extra transform.
final class DifferenceFunction {
    let length: Int
    let maxLag: Int
    let fft: RealFFT
    /// Power spectrum `|X(k)|²` after `load`, `fft.bins` values (may be edited before `evaluate`).
    let power: UnsafeMutablePointer<Float>
    /// `n(τ)` for τ in 0…maxLag+1 (+ `BandLimitedPeak.halfWidth` more, for interpolating the
    /// last peaks) after `evaluate`.
    let normalised: UnsafeMutablePointer<Float>
    /// `d′(τ)` for τ in 0…maxLag+1 after `evaluate` (`d′(0) = 1`).
    let cumulativeMeanNormalised: UnsafeMutablePointer<Float>
    let window: UnsafeMutablePointer<Float>
    /// `n(τ)` of the magnitude spectrum `|X(k)|` (not its power), same lags as `normalised`, after
    /// `magnitudeNormalised()`: weak harmonics weigh more (`MagnitudeOctave`).
    private let magnitudes: UnsafeMutablePointer<Float>
    /// How many values `normalised` holds.
    let lags: Int
    private let windowAutocorrelation: UnsafeMutablePointer<Float>
    private let windowEnergy: Float

    init(length: Int, maxLag: Int) {
        precondition(maxLag + 2 + BandLimitedPeak.halfWidth < length, "the window must be longer than the longest period")
        self.length = length
        self.maxLag = maxLag
        let lags = maxLag + 2 + BandLimitedPeak.halfWidth
        self.lags = lags
        let size = RealFFT.goodSize(atLeast: length + lags)
        fft = RealFFT(size: size)
        power = .allocate(capacity: size / 2 + 1)
        power.initialize(repeating: 0, count: size / 2 + 1)
        normalised = .allocate(capacity: lags)
        normalised.initialize(repeating: 0, count: lags)
        magnitudes = .allocate(capacity: lags)
        magnitudes.initialize(repeating: 0, count: lags)
        cumulativeMeanNormalised = .allocate(capacity: maxLag + 2)
        cumulativeMeanNormalised.initialize(repeating: 1, count: maxLag + 2)
        window = .allocate(capacity: length)
        windowAutocorrelation = .allocate(capacity: lags)
        var energy: Float = 0
        for i in 0..<length {
            // Periodic-free symmetric Hann over exactly `length` points, never zero inside.
            let w = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i + 1) / Double(length + 1)))
            window[i] = w
            energy += w * w
        }
        windowEnergy = energy
        for lag in 0..<lags {
            var sum: Double = 0
            for i in 0..<(length - lag) { sum += Double(window[i]) * Double(window[i + lag]) }
            windowAutocorrelation[lag] = Float(sum)
        }
    }

    deinit {
        power.deallocate()
        normalised.deallocate()
        magnitudes.deallocate()
        cumulativeMeanNormalised.deallocate()
        window.deallocate()
        windowAutocorrelation.deallocate()
    }

    /// Windows `samples[0..<length]`, transforms it and fills `power`.
    /// Returns the window's mean power (Hann-weighted).
    func load(_ samples: UnsafePointer<Float>) -> Float {
        let input = fft.input
        var energy: Float = 0
        for i in 0..<length {
            let v = samples[i] * window[i]
            input[i] = v
            energy += v * v
        }
        for i in length..<fft.size { input[i] = 0 }
        fft.forward()
        let spectrum = fft.spectrum
        for k in 0..<fft.bins {
            let re = spectrum[k].0, im = spectrum[k].1
            power[k] = re * re + im * im
        }
        return energy / windowEnergy
    }

    /// Computes `normalised` and `cumulativeMeanNormalised` from `power`.
    /// Returns false when the window is silent (no autocorrelation to normalise).
    func evaluate() -> Bool {
        let spectrum = fft.spectrum
        for k in 0..<fft.bins { spectrum[k] = (power[k], 0) }
        fft.inverse()
        let r = fft.input
        guard r[0] > 1e-12 else {
            for lag in 0..<lags { normalised[lag] = 0 }
            for lag in 0..<(maxLag + 2) { cumulativeMeanNormalised[lag] = 1 }
            return false
        }
        let zero = r[0] / windowAutocorrelation[0]
        let inverseZero = 1 / zero
        normalised[0] = 1
        cumulativeMeanNormalised[0] = 1
        var runningSum: Float = 0
        for lag in 1..<(maxLag + 2) {
            let n = r[lag] / windowAutocorrelation[lag] * inverseZero
            normalised[lag] = n
            let d = max(0, 1 - n)
            runningSum += d
            cumulativeMeanNormalised[lag] = runningSum > 0 ? d * Float(lag) / runningSum : 1
        }
        for lag in (maxLag + 2)..<lags { normalised[lag] = r[lag] / windowAutocorrelation[lag] * inverseZero }
        return true
    }

    /// The normalised autocorrelation of the magnitude spectrum `|X(k)|` of the window `power`
    /// holds (after any bleed suppression), like `normalised` for the power; valid until the next
    /// `load`. One more inverse transform: called only where a reading's octave is in question.
    func magnitudeNormalised() -> UnsafePointer<Float> {
        let spectrum = fft.spectrum
        for k in 0..<fft.bins { spectrum[k] = (power[k].squareRoot(), 0) }
        fft.inverse()
        let r = fft.input
        guard r[0] > 1e-12 else {
            for lag in 0..<lags { magnitudes[lag] = 0 }
            return UnsafePointer(magnitudes)
        }
        let inverseZero = windowAutocorrelation[0] / r[0]
        for lag in 0..<lags { magnitudes[lag] = r[lag] / windowAutocorrelation[lag] * inverseZero }
        return UnsafePointer(magnitudes)
    }
}
