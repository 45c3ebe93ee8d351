import CFFTW
import Foundation

/// The loudspeaker → room → microphone path as a per-bin convolutive transfer function in the
/// STFT domain: `M(k,t) ≈ Σ_l h_l(k) · B(k, t − lag_l)` over the backing's current and past
/// frames (lags in hops, default up to 40 = 0.4 s).
///
/// Why several frames: a 46 ms window of the backing explains only what the room does within
/// 46 ms. A loudspeaker a few metres away in a room with RT60 0.3–0.9 s is heard mostly through
/// its reverberation (beyond the critical distance, ≈ 0.7 m here), i.e. through earlier frames
/// of the backing. A single-frame gain cannot tell the ringing of the last chord from the voice;
/// the past frames can. (Room harness, backing alone, oracle per-bin fits: a third of the frames
/// kept > 20 % of their power unexplained with one frame, 1 % with eleven taps to 0.4 s.)
///
/// Estimation: exponentially weighted complex least squares per bin (normal equations
/// `R h = r`, `R = E[x* xᵀ]`, `r = E[x* M]`), solved every `solveInterval` frames by a Cholesky
/// factorisation with a small ridge. Like the single-frame cross-spectrum it replaces, it is
/// estimated in the complex domain: the voice, with a phase unrelated to the backing's, averages
/// out of `r` instead of biasing it upwards as a power-domain fit would.
///
/// A second played channel (stereo output): one more tap, at lag 0, on the second channel's
/// spectrum, so the fit is `M ≈ Σ_l h_l·B + g·S` — the microphone hears the two speakers in its
/// own ratio, and with vocal reduction (L = side + bass, R = −side + bass) no single mono
/// reference can stand for both at their different gains. The tap joins a bin's solve only
/// where the second channel carried power in the memory (`secondChannelShare` of the first
/// channel's): a mono output (side = 0) solves exactly the single-channel system it did before,
/// and a second channel collinear with the first (sustained, identical in both speakers) is held
/// by the ridge like the past lags of a sustained note.
///
/// Real-time safe: every buffer is allocated in `init`; `update` does not allocate or lock.
final class ConvolutiveBleedPath {
    let bins: Int
    let taps: Int
    /// Row length of the per-bin statistics: the lag taps plus the second channel's tap.
    private let rowLength: Int
    /// The second channel's tap joins a bin's solve when its mean power is at least this share
    /// of the first channel's lag-0 power (−40 dB).
    static let secondChannelShare: Float = 1e-4
    /// Lags of the taps, in frames (ascending, the first 0).
    private let lags: UnsafeMutablePointer<Int>
    /// Ring of the last `depth` backing spectra (interleaved re, im per bin).
    private let depth: Int
    private let ring: UnsafeMutablePointer<Float>
    private var head = 0
    private var framesSeen = 0
    /// Per bin: `R` (taps × taps, complex, upper triangle used), `r` and the solved filter `h`.
    private let correlation: UnsafeMutablePointer<Float>
    private let cross: UnsafeMutablePointer<Float>
    private let filter: UnsafeMutablePointer<Float>
    /// Scratch for one bin: regressors, Cholesky factor, intermediate solution.
    private let regressors: UnsafeMutablePointer<Float>
    private let factor: UnsafeMutablePointer<Double>
    private let solution: UnsafeMutablePointer<Double>
    /// Predicted bleed spectrum of the last frame, and its power.
    let predictedPower: UnsafeMutablePointer<Float>
    /// Per bin: Σ_l |h_l|², the path's power gain (for the band-median ceiling).
    let pathGain: UnsafeMutablePointer<Float>
    /// Per bin: the single-frame path's power gain |E[M·B*]|² / E[|B|²]² (the lag-0 statistics),
    /// and this frame's backing power |B|².
    let singleFrameGain: UnsafeMutablePointer<Float>
    let backingPower: UnsafeMutablePointer<Float>
    /// Per bin: the microphone's mean power (same memory), for the share the fit explains.
    private let micPower: UnsafeMutablePointer<Float>
    /// Per bin: the factor (0…1) by which the fit's explained power is shrunk for overfitting.
    private let shrink: UnsafeMutablePointer<Float>
    /// Independent frames per averaged frame (overlapping windows and sustained notes).
    private let independence: Double
    private let smoothing: Float
    private let ridge: Double
    private let solveInterval: Int
    private var untilSolve = 0
    /// Frames averaged since the estimate (re)started (a running mean until the memory is full).
    private var averaged = 0

    init(bins: Int, lags tapLags: [Int], smoothing: Float, ridge: Double, solveInterval: Int, independence: Double = 0.25) {
        precondition(!tapLags.isEmpty && tapLags[0] == 0 && zip(tapLags, tapLags.dropFirst()).allSatisfy { $0 < $1 },
                     "bleed path lags must start at 0 and increase")
        self.bins = bins
        taps = tapLags.count
        rowLength = taps + 1
        lags = .allocate(capacity: taps)
        for (i, l) in tapLags.enumerated() { lags[i] = l }
        depth = tapLags[tapLags.count - 1] + 1
        ring = .allocate(capacity: depth * bins * 2)
        ring.initialize(repeating: 0, count: depth * bins * 2)
        correlation = .allocate(capacity: bins * rowLength * rowLength * 2)
        correlation.initialize(repeating: 0, count: bins * rowLength * rowLength * 2)
        cross = .allocate(capacity: bins * rowLength * 2)
        cross.initialize(repeating: 0, count: bins * rowLength * 2)
        filter = .allocate(capacity: bins * rowLength * 2)
        filter.initialize(repeating: 0, count: bins * rowLength * 2)
        regressors = .allocate(capacity: rowLength * 2)
        regressors.initialize(repeating: 0, count: rowLength * 2)
        factor = .allocate(capacity: rowLength * rowLength * 2)
        factor.initialize(repeating: 0, count: rowLength * rowLength * 2)
        solution = .allocate(capacity: rowLength * 2)
        solution.initialize(repeating: 0, count: rowLength * 2)
        predictedPower = .allocate(capacity: bins)
        predictedPower.initialize(repeating: 0, count: bins)
        pathGain = .allocate(capacity: bins)
        pathGain.initialize(repeating: 0, count: bins)
        singleFrameGain = .allocate(capacity: bins)
        singleFrameGain.initialize(repeating: 0, count: bins)
        backingPower = .allocate(capacity: bins)
        backingPower.initialize(repeating: 0, count: bins)
        micPower = .allocate(capacity: bins)
        micPower.initialize(repeating: 0, count: bins)
        shrink = .allocate(capacity: bins)
        shrink.initialize(repeating: 0, count: bins)
        self.independence = independence
        self.smoothing = smoothing
        self.ridge = ridge
        self.solveInterval = max(1, solveInterval)
    }

    deinit {
        lags.deallocate()
        ring.deallocate()
        correlation.deallocate()
        cross.deallocate()
        filter.deallocate()
        regressors.deallocate()
        factor.deallocate()
        solution.deallocate()
        predictedPower.deallocate()
        pathGain.deallocate()
        micPower.deallocate()
        shrink.deallocate()
        singleFrameGain.deallocate()
        backingPower.deallocate()
    }

    /// Earlier frames the taps reach back over.
    var historyFrames: Int { depth - 1 }

    /// Forgets the backing frames (not the statistics): a new alignment is laid with `record`.
    func clearHistory() {
        ring.update(repeating: 0, count: depth * bins * 2)
        head = 0
        framesSeen = 0
    }

    /// Adds a backing frame to the history without a microphone frame to fit (no statistics).
    func record(backing: UnsafePointer<fftwf_complex>) {
        head = (head + 1) % depth
        let newest = ring + head * bins * 2
        for k in 0..<bins {
            newest[2 * k] = backing[k].0
            newest[2 * k + 1] = backing[k].1
        }
        framesSeen = min(framesSeen + 1, depth)
    }

    /// Shortens the memory to `frames` (the alignment changed: older statistics describe it only
    /// roughly, so new frames should soon outweigh them).
    func shortenMemory(to frames: Int) { averaged = min(averaged, frames) }

    /// Takes this frame's backing and microphone spectra: predicts the bleed with the current
    /// filter (into `predictedPower`), then updates the statistics and, every `solveInterval`
    /// frames, the filter. `second`: the second played channel's spectrum this frame (nil: none
    /// played, counted as silence).
    func update(backing: UnsafePointer<fftwf_complex>, second: UnsafePointer<fftwf_complex>? = nil,
                mic: UnsafePointer<fftwf_complex>) {
        record(backing: backing)
        averaged += 1
        let a = min(smoothing, 1 - 1 / Float(averaged)), b = 1 - a
        untilSolve -= 1
        let solveNow = untilSolve <= 0
        if solveNow { untilSolve = solveInterval }
        let n = taps, m = rowLength
        // Frames in the memory, as independent observations (an exponential memory of
        // 1/(1 − a) frames; neighbouring 46 ms windows 10 ms apart share most of their samples).
        let independentFrames = independence * Double(min(averaged, Int(1 / (1 - Double(smoothing)))))
        for k in 0..<bins {
            // Gather x_l = B(k, t − lag_l); frames before the stream began are silent.
            for l in 0..<n {
                let lag = lags[l]
                if lag < framesSeen {
                    let frame = ring + ((head - lag + depth) % depth) * bins * 2
                    regressors[2 * l] = frame[2 * k]
                    regressors[2 * l + 1] = frame[2 * k + 1]
                } else {
                    regressors[2 * l] = 0
                    regressors[2 * l + 1] = 0
                }
            }
            regressors[2 * n] = second?[k].0 ?? 0
            regressors[2 * n + 1] = second?[k].1 ?? 0
            // Prediction with the filter solved so far (it has not seen this frame's voice);
            // the second channel's tap is 0 where it is not in the solve.
            let h = filter + k * m * 2
            var yr: Float = 0, yi: Float = 0
            for l in 0..<m {
                let xr = regressors[2 * l], xi = regressors[2 * l + 1]
                yr += h[2 * l] * xr - h[2 * l + 1] * xi
                yi += h[2 * l] * xi + h[2 * l + 1] * xr
            }
            predictedPower[k] = shrink[k] * (yr * yr + yi * yi)
            // R ← a·R + b·x* xᵀ (upper triangle), r ← a·r + b·x* M.
            let r = correlation + k * m * m * 2
            let c = cross + k * m * 2
            let mr = mic[k].0, mi = mic[k].1
            micPower[k] = a * micPower[k] + b * (mr * mr + mi * mi)
            // Without a second channel this frame its row and column only decay (a mono output
            // costs what it did before the second channel existed).
            let used = second == nil ? n : m
            if used < m {
                for i in 0..<m {
                    r[2 * (i * m + n)] *= a
                    r[2 * (i * m + n) + 1] *= a
                }
                c[2 * n] *= a
                c[2 * n + 1] *= a
            }
            for i in 0..<used {
                let xr = regressors[2 * i], xi = -regressors[2 * i + 1]  // conj(x_i)
                for j in i..<used {
                    let zr = regressors[2 * j], zi = regressors[2 * j + 1]
                    let idx = 2 * (i * m + j)
                    r[idx] = a * r[idx] + b * (xr * zr - xi * zi)
                    r[idx + 1] = a * r[idx + 1] + b * (xr * zi + xi * zr)
                }
                c[2 * i] = a * c[2 * i] + b * (xr * mr - xi * mi)
                c[2 * i + 1] = a * c[2 * i + 1] + b * (xr * mi + xi * mr)
            }
            let sbb = r[0]
            singleFrameGain[k] = sbb > 1e-20 ? (c[0] * c[0] + c[1] * c[1]) / (sbb * sbb) : 0
            backingPower[k] = regressors[0] * regressors[0] + regressors[1] * regressors[1]
            if solveNow { solve(bin: k, independentFrames: independentFrames) }
        }
    }

    /// Solves `(R + λ·tr(R)/n·I) h = r` for one bin by a complex Cholesky factorisation
    /// (`R` is Hermitian positive semi-definite; the ridge makes it definite and keeps the
    /// taps of a sustained note, whose past frames are nearly collinear, from blowing up).
    ///
    /// A least-squares fit over N independent frames with n taps explains about n/N of whatever
    /// it cannot model (the voice) by chance; on a bleed-free recording that chance fit was
    /// subtracted from the voice. The explained share C = hᴴr / E|M|² is therefore shrunk to the
    /// adjusted share 1 − (1 − C)(N − 1)/(N − n − 1) (0 until N > n + 1), and the prediction
    /// with it.
    private func solve(bin k: Int, independentFrames: Double) {
        let row = rowLength
        let r = correlation + k * row * row * 2
        let c = cross + k * row * 2
        let h = filter + k * row * 2
        // The second channel's tap (index `taps`) joins only where it carried power.
        let secondPower = r[2 * (taps * row + taps)]
        let n = secondPower > Self.secondChannelShare * r[0] && secondPower > 0 ? taps + 1 : taps
        h[2 * taps] = 0
        h[2 * taps + 1] = 0
        var trace: Double = 0
        for i in 0..<n { trace += Double(r[2 * (i * row + i)]) }
        let load = ridge * trace / Double(n) + 1e-30
        // A(i, j) for i ≥ j is conj(R(j, i)); L is stored in `factor` (lower triangle).
        for j in 0..<n {
            var d = Double(r[2 * (j * row + j)]) + load
            for m in 0..<j {
                let lr = factor[2 * (j * n + m)], li = factor[2 * (j * n + m) + 1]
                d -= lr * lr + li * li
            }
            guard d > 0 else {
                for i in 0..<(2 * row) { h[i] = 0 }
                pathGain[k] = 0
                return
            }
            let pivot = d.squareRoot()
            factor[2 * (j * n + j)] = pivot
            factor[2 * (j * n + j) + 1] = 0
            for i in (j + 1)..<max(j + 1, n) {
                // A(i, j) = conj(R(j, i)).
                var sr = Double(r[2 * (j * row + i)]), si = -Double(r[2 * (j * row + i) + 1])
                for m in 0..<j {
                    // L(i, m) · conj(L(j, m))
                    let ar = factor[2 * (i * n + m)], ai = factor[2 * (i * n + m) + 1]
                    let br = factor[2 * (j * n + m)], bi = -factor[2 * (j * n + m) + 1]
                    sr -= ar * br - ai * bi
                    si -= ar * bi + ai * br
                }
                factor[2 * (i * n + j)] = sr / pivot
                factor[2 * (i * n + j) + 1] = si / pivot
            }
        }
        // L y = r
        for i in 0..<n {
            var sr = Double(c[2 * i]), si = Double(c[2 * i + 1])
            for m in 0..<i {
                let ar = factor[2 * (i * n + m)], ai = factor[2 * (i * n + m) + 1]
                let yr = solution[2 * m], yi = solution[2 * m + 1]
                sr -= ar * yr - ai * yi
                si -= ar * yi + ai * yr
            }
            let pivot = factor[2 * (i * n + i)]
            solution[2 * i] = sr / pivot
            solution[2 * i + 1] = si / pivot
        }
        // Lᴴ h = y
        var gain: Double = 0
        for i in stride(from: n - 1, through: 0, by: -1) {
            var sr = solution[2 * i], si = solution[2 * i + 1]
            for m in (i + 1)..<max(i + 1, n) {
                // conj(L(m, i)) · h_m
                let ar = factor[2 * (m * n + i)], ai = -factor[2 * (m * n + i) + 1]
                let hr = solution[2 * m], hi = solution[2 * m + 1]
                sr -= ar * hr - ai * hi
                si -= ar * hi + ai * hr
            }
            let pivot = factor[2 * (i * n + i)]
            solution[2 * i] = sr / pivot
            solution[2 * i + 1] = si / pivot
            gain += solution[2 * i] * solution[2 * i] + solution[2 * i + 1] * solution[2 * i + 1]
        }
        for i in 0..<(2 * n) { h[i] = Float(solution[i]) }
        // hᴴ r: the power the fit explains.
        var explained: Double = 0
        for i in 0..<n { explained += solution[2 * i] * Double(c[2 * i]) + solution[2 * i + 1] * Double(c[2 * i + 1]) }
        let total = Double(micPower[k])
        var factor: Double = 0
        if independentFrames > Double(n + 1), total > 0, explained > 0 {
            let share = min(1, explained / total)
            let adjusted = 1 - (1 - share) * (independentFrames - 1) / (independentFrames - Double(n) - 1)
            factor = max(0, min(1, adjusted / share))
        }
        shrink[k] = Float(factor)
        pathGain[k] = Float(gain * factor)
    }

    func reset() {
        ring.update(repeating: 0, count: depth * bins * 2)
        correlation.update(repeating: 0, count: bins * rowLength * rowLength * 2)
        cross.update(repeating: 0, count: bins * rowLength * 2)
        filter.update(repeating: 0, count: bins * rowLength * 2)
        predictedPower.update(repeating: 0, count: bins)
        pathGain.update(repeating: 0, count: bins)
        singleFrameGain.update(repeating: 0, count: bins)
        backingPower.update(repeating: 0, count: bins)
        micPower.update(repeating: 0, count: bins)
        shrink.update(repeating: 0, count: bins)
        head = 0
        framesSeen = 0
        averaged = 0
        untilSolve = 0
    }
}
