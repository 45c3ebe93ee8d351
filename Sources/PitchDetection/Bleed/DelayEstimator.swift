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
    /// Peak-to-floor ratios of the correlation: a clear peak holds the alignment; finding or
    /// moving it takes a strong one, in two blocks running.
    static let clearPeak: Float = 5
    static let strongPeak: Float = 8
    /// A peak this strong finds the alignment in one block (the song's start, where the backing
    /// plays alone: 15–24).
    static let certainPeak: Float = 12
    /// A peak within this many samples of the current delay keeps the current delay.
    let holdTolerance: Int
    /// Whether the backing has been found in the microphone: one certain peak, or two strong
    /// ones in blocks running at the same delay. Until then there is no bleed to remove (a clean recording, or a mic
    /// far from the speakers), and suppressing against a guessed alignment only lets the bleed
    /// path fit the voice to the backing it sings along with (a clean low voice lost 237 points).
    private(set) var isLocked = false
    /// A peak away from the current delay, waiting for the next block to confirm it.
    private var candidate: Int?
    /// Blocks whose clear peak agreed with the (new or held) locked delay: fresh evidence of where
    /// the backing is in the microphone, which a reader can tell apart from a delay held in silence.
    private(set) var confirmations = 0

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
        // Accept only a peak that clearly stands out of the correlation floor. Finding or moving
        // the alignment takes a stronger one: on clean voices (no bleed at all) chance peaks
        // reached 5.0–7.2 × the floor; real bleed from −20 dB up gave 10–24 at the start.
        let rms = (sumSquares / Float(maxDelay + 1)).squareRoot()
        guard q[best] > Self.clearPeak * rms else { return }
        let found = maxDelay - best
        let strong = q[best] >= Self.strongPeak * rms
        if isLocked && abs(found - delay) <= holdTolerance {
            candidate = nil
            confirmations &+= 1
            return
        }
        // Finding or moving the alignment takes a strong peak in two blocks running (one block of
        // a loud voice can put a chance peak anywhere, and every move costs the bleed path its
        // memory); a certain peak finds it at once.
        guard strong else { candidate = nil; return }
        let confirmed = candidate.map { abs(found - $0) <= holdTolerance } == true
            || (!isLocked && q[best] >= Self.certainPeak * rms)
        if confirmed {
            isLocked = true
            delay = found
            candidate = nil
            confirmations &+= 1
        } else {
            candidate = found
        }
    }

    /// Starts locked at `delay`: an alignment already found on the same recording (offline, where
    /// the whole recording is at hand), so suppression runs from the first frame.
    func reset(lockedAt delay: Int) {
        reset(initialDelay: delay)
        isLocked = true
        confirmations = 1
    }

    func reset(initialDelay: Int) {
        mic.reset()
        backing.reset()
        accumulated.update(repeating: (0, 0), count: micFFT.bins)
        untilNextEstimate = blockLength + maxDelay
        delay = min(max(0, initialDelay), maxDelay)
        isLocked = false
        candidate = nil
    }
}
