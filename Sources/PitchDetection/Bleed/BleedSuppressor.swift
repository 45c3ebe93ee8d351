import CFFTW

/// Removes the known backing track from the microphone's power spectrum before pitch analysis,
/// and tells afterwards whether a period found in the cleaned spectrum is the singer's.
///
/// Method: magnitude spectral subtraction with an adaptively estimated bleed path and a
/// model of the room's reverberation tail. The backing window (delay-aligned by
/// `DelayEstimator`) is transformed with the same window and FFT as the microphone.
/// - Direct part: per bin, `|H(k)|² = |E[M·B*]|² / E[|B|²]²` (recursive averages over frames;
///   the voice is uncorrelated with the backing and averages out; a small misalignment only
///   rotates the phase of `E[M·B*]`, which the magnitude ignores).
/// - Tail: a room with an RT60 of 0.3–0.8 s keeps ringing with what the backing played before
///   this 46 ms window, which the current backing window cannot explain (measured: chord
///   strokes left a third of the microphone's power unexplained). It is modelled as the direct
///   bleed power smoothed over past frames, `T(k) ← d·T(k) + (1 − d)·|H|²|B|²`, added with a
///   weight: bleed `P(k) = |H|²|B|² + w·T(k)`.
/// - `|V|² = max(|M|² − β·P, f·mean(P))`: the floor is spectrally flat, so what remains of a
///   frame without voice is noise-like, not the backing's harmonics at a lower level.
/// `harmonicVoiceShare` then compares, at the harmonics of the chosen period only, the power
/// left after subtraction with the microphone's: a sung period keeps power of its own there
/// even under a louder backing; a period carried only by the backing does not. (The earlier
/// rule, a share of the whole frame's power, dropped sung frames whenever the backing was
/// louder in the frame overall.) `bearsOutLongerPeriod` checks the harmonic-reading check's
/// move to a longer period against the same cleaned spectrum.
/// Stereo output: the microphone hears the two speakers in its own ratio. With a second played
/// channel (the side, (L − R) / 2) the path fits the microphone from both (`ConvolutiveBleedPath`'s
/// second-channel tap): with vocal reduction the speakers play the side in anti-phase above the
/// bass and the centre only in the bass, and one mono reference matched the side or the bass at
/// the microphone's gain, never both (a silent singer scored 284 of 2951 from vocal-reduced
/// speakers; docs/audio-engine.md).
/// Chosen over an NLMS echo canceller because it adds no latency, costs one FFT per frame
/// (an NLMS filter covering a 250 ms path is ~4000 taps per sample) and does not need the
/// phase of the path to stay exact while the singer moves.
final class BleedSuppressor {
    private let fft: RealFFT
    /// The second played channel's window and spectrum.
    private let secondFFT: RealFFT
    private let window: UnsafePointer<Float>
    private let length: Int
    /// The bleed path over the backing's current and past frames.
    private let path: ConvolutiveBleedPath
    private let tail: UnsafeMutablePointer<Float>
    private let cleaned: UnsafeMutablePointer<Float>
    /// The microphone's power before suppression and what is left of it (≥ 0), last frame.
    private let original: UnsafeMutablePointer<Float>
    private var active = false
    /// The delay the path estimate was made for.
    private var pathDelay = -1
    private let tailDecay: Float
    /// Per-bin scratch: the path gain.
    private let gain: UnsafeMutablePointer<Float>
    /// Per band: the median path gain; scratch for finding it.
    private let bandMedian: UnsafeMutablePointer<Float>
    private let singleBandMedian: UnsafeMutablePointer<Float>
    private let sortScratch: UnsafeMutablePointer<Float>
    private let bandWidth: Int
    private let gainCeiling: Float
    private let tailWeight: Float
    private let overSubtraction: Float
    private let floor: Float
    private let addedHarmonicVoiceShare: Float

    init(fftSize: Int, window: UnsafePointer<Float>, length: Int, configuration: BleedConfiguration) {
        fft = RealFFT(size: fftSize)
        secondFFT = RealFFT(size: fftSize)
        self.window = window
        self.length = length
        let bins = fftSize / 2 + 1
        path = ConvolutiveBleedPath(
            bins: bins, lags: configuration.pathLags, smoothing: configuration.transferSmoothing,
            ridge: Double(configuration.pathRidge), solveInterval: configuration.pathSolveInterval,
            independence: Double(configuration.pathIndependence))
        tail = .allocate(capacity: bins)
        tail.initialize(repeating: 0, count: bins)
        cleaned = .allocate(capacity: bins)
        cleaned.initialize(repeating: 0, count: bins)
        original = .allocate(capacity: bins)
        original.initialize(repeating: 0, count: bins)
        tailDecay = configuration.tailDecay
        gain = .allocate(capacity: bins)
        gain.initialize(repeating: 0, count: bins)
        gainCeiling = configuration.gainCeiling
        // 16 bands (≈ 375 Hz at 12 kHz): a singer's harmonics fill a minority of a band's bins.
        bandWidth = max(4, bins / 16)
        bandMedian = .allocate(capacity: bins / bandWidth + 1)
        bandMedian.initialize(repeating: 0, count: bins / bandWidth + 1)
        singleBandMedian = .allocate(capacity: bins / bandWidth + 1)
        singleBandMedian.initialize(repeating: 0, count: bins / bandWidth + 1)
        sortScratch = .allocate(capacity: bandWidth)
        sortScratch.initialize(repeating: 0, count: bandWidth)
        tailWeight = configuration.tailWeight
        overSubtraction = configuration.overSubtraction
        floor = configuration.spectralFloor
        addedHarmonicVoiceShare = configuration.addedHarmonicVoiceShare
    }

    deinit {
        tail.deallocate()
        cleaned.deallocate()
        original.deallocate()
        gain.deallocate()
        bandMedian.deallocate()
        sortScratch.deallocate()
        singleBandMedian.deallocate()
    }

    /// Earlier backing frames the path looks back over.
    var historyFrames: Int { path.historyFrames }

    /// Whether the path's history must be laid anew before suppressing at `delay` (the backing was
    /// just found, or found at another alignment).
    func needsHistory(at delay: Int) -> Bool { delay != pathDelay }

    /// Lays the path's history of backing frames at the new alignment: `frames` windows, one hop
    /// apart, ending one hop before the current one. `earlier` holds `frames × hop + length`
    /// samples whose last `length` are the current window. Without it the path met the backing
    /// with its past lags empty (silence before the backing was found); fitted on those frames,
    /// its first solves predicted 10–40 times the microphone's power on the next ones, and the
    /// spectral floor under that erased the voice for half a second after every lock
    /// (synthetic mixes at −12 dB: voicing recall 0.96 with the reference, 1.00 without).
    /// Costs `frames` transforms, once per alignment.
    func primeHistory(earlier: UnsafePointer<Float>, hop: Int, frames: Int) {
        path.clearHistory()
        for j in stride(from: frames, through: 1, by: -1) {
            let start = earlier + (frames - j) * hop
            let input = fft.input
            for i in 0..<length { input[i] = start[i] * window[i] }
            for i in length..<fft.size { input[i] = 0 }
            fft.forward()
            path.record(backing: fft.spectrum)
        }
    }

    /// - Parameters:
    ///   - micSpectrum: the microphone window's spectrum (same window, same FFT size).
    ///   - micPower: its power spectrum, cleaned in place.
    ///   - backing: the delay-aligned backing window, `length` samples.
    ///   - second: the second played channel (the side of a stereo output), aligned the same way;
    ///     nil for a mono reference.
    ///   - delay: the alignment used; when it changes, the older cross-spectra are down-weighted.
    func suppress(
        micSpectrum: UnsafePointer<fftwf_complex>, micPower: UnsafeMutablePointer<Float>,
        backing: UnsafePointer<Float>, second: UnsafePointer<Float>? = nil, delay: Int
    ) {
        if delay != pathDelay {
            // Cross-spectra made at another alignment describe this one only roughly (a
            // sustained partial's cross-power does not depend on it): they are kept, but new
            // frames soon outweigh them. Zeroing them left the first frames after the delay was
            // found with a one-frame estimate, which removes the voice with the bleed.
            pathDelay = delay
            path.shortenMemory(to: 10)
        }
        let input = fft.input
        var energy: Float = 0
        for i in 0..<length {
            let v = backing[i] * window[i]
            input[i] = v
            energy += v * v
        }
        for i in length..<fft.size { input[i] = 0 }
        var secondEnergy: Float = 0
        if let second {
            let secondInput = secondFFT.input
            for i in 0..<length {
                let v = second[i] * window[i]
                secondInput[i] = v
                secondEnergy += v * v
            }
            for i in length..<fft.size { secondInput[i] = 0 }
        }
        active = energy > 1e-10
        guard active else { return }
        fft.forward()
        // A silent second channel (a mono output) is left out, as if none were given.
        let secondSpectrum: UnsafePointer<fftwf_complex>?
        if secondEnergy > 0 {
            secondFFT.forward()
            secondSpectrum = UnsafePointer(secondFFT.spectrum)
        } else {
            secondSpectrum = nil
        }
        path.update(backing: fft.spectrum, second: secondSpectrum, mic: micSpectrum)
        var bleedTotal: Float = 0
        for k in 0..<fft.bins { gain[k] = path.pathGain[k] }
        let d = tailDecay, oneMinusD = 1 - tailDecay
        let bins = fft.bins
        if gainCeiling > 0 { findBandMedians(into: bandMedian) }
        for k in 0..<bins { gain[k] = path.singleFrameGain[k] }
        if gainCeiling > 0 { findBandMedians(into: singleBandMedian) }
        for k in 0..<bins {
            original[k] = micPower[k]
            let g = path.pathGain[k]
            var scaleDown: Float = 1
            if gainCeiling > 0 {
                // A voice holding one of the backing's notes stays coherent with it and inflates
                // the gains at its harmonics; a loudspeaker through a room has a gain of about
                // the same size across a band. The band's median ignores the few harmonic bins,
                // where a mean (the earlier rule) was pulled up by them: a bleed-free recording
                // lost a twentieth of its voiced frames to the voice "explaining" itself.
                let ceiling = gainCeiling * bandMedian[min(k / bandWidth, bins / bandWidth)]
                if g > ceiling { scaleDown = ceiling / g }
            }
            // The single-frame estimate (lag 0 alone: one tap, hardly any chance fit) is a lower
            // bound: the multi-frame fit's overfitting correction shrinks it to nothing where a
            // loud voice dwarfs a quiet bleed, which then passed for singing in the rests.
            var single = gain[k]
            if gainCeiling > 0 { single = min(single, gainCeiling * singleBandMedian[min(k / bandWidth, bins / bandWidth)]) }
            let direct = max(path.predictedPower[k] * scaleDown, single * path.backingPower[k])
            tail[k] = d * tail[k] + oneMinusD * direct
            let bleedPower = direct + tailWeight * tail[k]
            bleedTotal += bleedPower
            cleaned[k] = micPower[k] - overSubtraction * bleedPower
        }
        // A spectrally flat floor: what is left of the bleed looks like noise, not like the
        // backing's harmonics, so a frame with no voice in it has no periodicity left.
        let flat = floor * bleedTotal / Float(fft.bins)
        for k in 0..<fft.bins {
            micPower[k] = max(cleaned[k], flat)
            cleaned[k] = max(cleaned[k], 0)
        }
    }

    /// The median of `gain` over each band of `bandWidth` bins (the last band takes the rest).
    private func findBandMedians(into bandMedian: UnsafeMutablePointer<Float>) {
        let bins = fft.bins
        var band = 0
        while band * bandWidth < bins {
            let lo = band * bandWidth, hi = band == bins / bandWidth ? bins : min(bins, lo + bandWidth)
            let n = min(hi - lo, bandWidth)
            // Insertion sort of ≤ bandWidth values: no allocation, a few hundred steps.
            for i in 0..<n {
                let v = gain[lo + i]
                var j = i
                while j > 0 && sortScratch[j - 1] > v { sortScratch[j] = sortScratch[j - 1]; j -= 1 }
                sortScratch[j] = v
            }
            bandMedian[band] = n > 0 ? sortScratch[n / 2] : 0
            band += 1
        }
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

    /// Whether the harmonic-reading check's move from period `short` to the longer `longer`
    /// (a whole multiple m of it) is borne out by what suppression left, in the last frame.
    ///
    /// The longer period differs from the shorter only by its harmonics h with m ∤ h; at lag
    /// `short` each such harmonic's contribution to n(τ) is cos(2πh/m) ≥ −1 instead of 1, so
    /// n(longer) − n(short) ≤ 2 × their share of the power at the longer period's harmonics.
    /// On a suppressed spectrum n(τ) also rises with the lag by itself (subtraction clipped to a
    /// flat floor narrows each partial's lobe, so the autocorrelation decays slower than the
    /// window's, which n divides by): a sung 220 Hz note under a louder backing read n = 0.94 at
    /// its period and 1.04 at three times it with no power between its harmonics, and the check
    /// took 73 Hz, or the bass's 98 Hz. A gain larger than twice the added share is that bias,
    /// not the voice. True without an active backing.
    func bearsOutLongerPeriod(_ longer: PeriodCandidate, over short: PeriodCandidate) -> Bool {
        guard active, short.lag > 0 else { return true }
        let multiple = Int((longer.lag / short.lag).rounded())
        guard multiple > 1 else { return true }
        guard 2 * addedHarmonicShare(lag: short.lag, multiple: multiple) >= longer.clarity - short.clarity else { return false }
        // The added harmonics must be the voice's, not what is left of the bleed: a sung note
        // over the bass a twelfth under it (D4 over G2) shares the bass's period, and the rest of
        // the bass's partials after subtraction made 3× the sung period look the more periodic.
        return addedVoiceShare(lag: short.lag, multiple: multiple) >= addedHarmonicVoiceShare
    }

    /// At the harmonics `multiple × lag` adds to `lag`'s, the share of the microphone's power
    /// that suppression left (1 when there is no power there).
    private func addedVoiceShare(lag: Float, multiple: Int) -> Float {
        let spacing = Float(fft.size) / (lag * Float(multiple))
        let reach = min(2, Int(spacing / 4))
        var left: Float = 0, all: Float = 0
        var h = 1
        while true {
            let centre = Int((Float(h) * spacing).rounded())
            if centre + reach >= fft.bins { break }
            if h % multiple != 0 {
                for k in max(0, centre - reach)...(centre + reach) {
                    left += cleaned[k]
                    all += original[k]
                }
            }
            h += 1
        }
        return all > 0 ? left / all : 1
    }

    /// The share of the power left after suppression at the harmonics of `multiple × lag` that
    /// falls on those that are not harmonics of `lag`. Only bins within a quarter of the harmonic
    /// spacing (at most ±2) count, so the shorter period's partials do not spill into the share.
    private func addedHarmonicShare(lag: Float, multiple: Int) -> Float {
        let spacing = Float(fft.size) / (lag * Float(multiple))
        let reach = min(2, Int(spacing / 4))
        var added: Float = 0, all: Float = 0
        var h = 1
        while true {
            let centre = Int((Float(h) * spacing).rounded())
            if centre + reach >= fft.bins { break }
            for k in max(0, centre - reach)...(centre + reach) {
                all += cleaned[k]
                if h % multiple != 0 { added += cleaned[k] }
            }
            h += 1
        }
        return all > 0 ? added / all : 0
    }

    func reset() {
        path.reset()
        pathDelay = -1
        tail.update(repeating: 0, count: fft.bins)
    }
}
