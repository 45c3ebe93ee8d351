import CFFTW
import Foundation

/// Finds how late the backing track arrives in the microphone (GCC-PHAT).
///
/// Every `blockLength` analysis samples the last block of microphone signal is
/// cross-correlated with the backing over `0…maxDelay` lags through one FFT pair. The
/// phase transform (each bin's cross-spectrum divided by its magnitude) whitens both
/// signals so the peak is sharp even for bass-heavy music, and the singer's voice, which is
/// uncorrelated with the backing, only adds a noise floor. Cross-spectra of successive
/// blocks are averaged so one quiet block does not move the estimate.
final class DelayEstimator {
    let blockLength: Int
    let maxDelay: Int
    /// Current estimate in analysis samples (backing → microphone).
    private(set) var delay: Int
    private let mic: SampleHistory
    private let backing: SampleHistory
    private let micFFT: RealFFT
    private let backingFFT: RealFFT
    private let accumulated: UnsafeMutablePointer<fftwf_complex>
    /// Hann taper on the microphone block: an untapered block starts and ends with a step, and
    /// after the phase transform the steps of both blocks correlate at the largest lag, which
    /// won against a quiet bleed under a loud voice (delay stuck at 150–250 ms instead of 20 ms).
    private let taper: UnsafeMutablePointer<Float>
    private var untilNextEstimate: Int
    /// A peak within this many samples of the current delay keeps the current delay.
    let holdTolerance: Int
    /// Whether a peak has been accepted since the start (until then the initial delay is a guess
    /// and the first clear peak is taken at once).
    private var locked = false
    /// A peak away from the current delay, waiting for the next block to confirm it.
    private var candidate: Int?

    /// - Parameter holdTolerance: peaks this close to the current delay (samples) leave it as it
    ///   is. A fractional delay (the live reference is interpolated) made the peak toggle between
    ///   neighbouring lags every block, and each move cut the bleed path's memory to a few frames:
    ///   live scoring then trailed `karaoke score` on the same audio, and a silent phone kept
    ///   scoring the backing. The path absorbs a sub-millisecond misalignment as a phase.
    init(blockLength: Int, maxDelay: Int, initialDelay: Int, holdTolerance: Int = 0) {
        self.blockLength = blockLength
        self.maxDelay = maxDelay
        self.holdTolerance = max(0, holdTolerance)
        delay = min(max(0, initialDelay), maxDelay)
        mic = SampleHistory(capacity: blockLength)
        backing = SampleHistory(capacity: blockLength + maxDelay)
        var size = 64
        while size < blockLength + maxDelay { size *= 2 }
        micFFT = RealFFT(size: size, measure: false)
        backingFFT = RealFFT(size: size, measure: false)
        accumulated = .allocate(capacity: size / 2 + 1)
        accumulated.initialize(repeating: (0, 0), count: size / 2 + 1)
        taper = .allocate(capacity: blockLength)
        for i in 0..<blockLength {
            taper[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(blockLength)))
        }
        untilNextEstimate = blockLength + maxDelay
    }

    deinit {
        accumulated.deallocate()
        taper.deallocate()
    }

    @inline(__always)
    func push(mic m: Float, backing b: Float) {
        mic.append(m)
        backing.append(b)
        untilNextEstimate -= 1
        if untilNextEstimate == 0 {
            untilNextEstimate = blockLength
            estimate()
        }
    }

    private func estimate() {
        let size = micFFT.size
        let m = mic.latest(blockLength), b = backing.latest(blockLength + maxDelay)
        var micEnergy: Float = 0, backingEnergy: Float = 0
        for i in 0..<blockLength { micFFT.input[i] = m[i] * taper[i]; micEnergy += m[i] * m[i] }
        for i in blockLength..<size { micFFT.input[i] = 0 }
        for i in 0..<(blockLength + maxDelay) { backingFFT.input[i] = b[i]; backingEnergy += b[i] * b[i] }
        for i in (blockLength + maxDelay)..<size { backingFFT.input[i] = 0 }
        guard micEnergy > 1e-6, backingEnergy > 1e-6 else { return }
        micFFT.forward()
        backingFFT.forward()
        // q(s) = Σ_j m[j]·b[j+s]  ⇔  Q = conj(M)·B ; the delay is maxDelay − s.
        let bins = micFFT.bins
        for k in 0..<bins {
            let (mr, mi) = micFFT.spectrum[k], (br, bi) = backingFFT.spectrum[k]
            let re = mr * br + mi * bi, im = mr * bi - mi * br
            let magnitude = (re * re + im * im).squareRoot() + 1e-12
            accumulated[k].0 = 0.5 * accumulated[k].0 + re / magnitude
            accumulated[k].1 = 0.5 * accumulated[k].1 + im / magnitude
            backingFFT.spectrum[k] = accumulated[k]
        }
        backingFFT.inverse()
        let q = backingFFT.input
        var best = 0
        var sumSquares: Float = 0
        for s in 0...maxDelay {
            sumSquares += q[s] * q[s]
            if q[s] > q[best] { best = s }
        }
        // Accept only a peak that clearly stands out of the correlation floor.
        let rms = (sumSquares / Float(maxDelay + 1)).squareRoot()
        guard q[best] > 5 * rms else { return }
        let found = maxDelay - best
        if !locked {
            locked = true
            delay = found
            return
        }
        if abs(found - delay) <= holdTolerance {
            candidate = nil
            return
        }
        // A move must show in two blocks running: one block of a loud voice can put a chance
        // peak anywhere in the range, and every move costs the bleed path its memory.
        if let waiting = candidate, abs(found - waiting) <= holdTolerance {
            delay = found
            candidate = nil
        } else {
            candidate = found
        }
    }

    func reset(initialDelay: Int) {
        mic.reset()
        backing.reset()
        accumulated.update(repeating: (0, 0), count: micFFT.bins)
        untilNextEstimate = blockLength + maxDelay
        delay = min(max(0, initialDelay), maxDelay)
        locked = false
        candidate = nil
    }
}
