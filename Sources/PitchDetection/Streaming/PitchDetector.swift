import Foundation

/// Monophonic singing-pitch detector (YIN family on FFTW), streaming and offline.
///
/// Pipeline: anti-alias + downsample by a whole factor to the analysis rate (12 kHz from
/// 48 kHz, 14.7 kHz from 44.1 kHz, 16 kHz as is) → first-order low cut (400 Hz) → history.
/// Every hop: Hann window → FFT → power spectrum → [bleed suppression] → inverse FFT =
/// autocorrelation → YIN difference → first dip + parabolic interpolation → harmonic-reading
/// check, else the octave on the magnitude spectrum (`MagnitudeOctave`), else sub-harmonic check
/// → octave guard → voicing gate → [a frame left unvoiced: the same on a short window,
/// `ShortWindow`] → [a voiced frame not continuing its period: the short window over the newest
/// samples, `newestReading`] → `PitchFrame`.
///
/// Timing: frame `k` describes the window centred on input sample `k × hopSamples`
/// (`time = k × hopSamples / sampleRate`), the first frame is at t = 0 (the stream is taken
/// as silent before its first sample). Frame `k` is emitted from `process` during the call
/// that delivers input sample `k × hopSamples + lookaheadSamples`, so
/// **latency from the last sample a frame describes to its emission is zero samples** (plus
/// the computation, ~5 µs), and from the frame's `time` it is `lookaheadSeconds`
/// (half the 46 ms window plus the decimation filter: 23.4 ms at 48 kHz, 23.3 ms at 44.1 kHz,
/// 23.1 ms at 16 kHz with the defaults).
///
/// Real-time safe: all buffers and FFTW plans are made in `init`; `process` does not allocate,
/// lock or log. One instance must be used by one thread at a time (it may be handed over).
public final class PitchDetector: @unchecked Sendable {
    public let sampleRate: Double
    public let configuration: PitchDetectorConfiguration
    /// Input samples between frames.
    public let hopSamples: Int
    /// Input samples after a frame's centre that its window still needs.
    public let lookaheadSamples: Int
    public var hopSeconds: Double { Double(hopSamples) / sampleRate }
    public var lookaheadSeconds: Double { Double(lookaheadSamples) / sampleRate }
    /// The rate the estimator runs at (input rate / decimation factor).
    public let analysisRate: Double

    /// Where the backing was last found in the microphone (seconds after the reference given with
    /// it), and how many blocks have confirmed an alignment so far (a new count is a new
    /// measurement, not a delay held while the music is silent); nil until the backing is found.
    public var bleedAlignment: (seconds: Double, confirmations: Int)? {
        delayEstimator.isLocked ? (Double(delayEstimator.delay) / analysisRate, delayEstimator.confirmations) : nil
    }

    /// How FFTW plans transform sizes this process has not met yet (default `.estimate`: no
    /// start-up cost). Plans are shared process-wide, so set it before the first detector.
    public static var fftPlanning: FFTPlanning {
        get { FFTPlanCache.shared.planning }
        set { FFTPlanCache.shared.planning = newValue }
    }

    private let decimator: Decimator
    /// Per-block outputs of the decimators.
    private let decimated: UnsafeMutablePointer<Float>
    private let decimatedBacking: UnsafeMutablePointer<Float>
    private let backingDecimator: Decimator
    /// The second played channel (stereo output's side), treated like the backing.
    private let decimatedSecond: UnsafeMutablePointer<Float>
    private let secondDecimator: Decimator
    private var secondLowCut: LowFrequencyCut
    private let secondHistory: SampleHistory
    /// Raw analysis-rate microphone samples (level, energy balance).
    private let history: SampleHistory
    /// The same after the low-frequency cut (period estimation).
    private let cutHistory: SampleHistory
    private var lowCut: LowFrequencyCut
    private var backingLowCut: LowFrequencyCut
    private let backingHistory: SampleHistory
    private let difference: DifferenceFunction
    /// Re-reads the frames `difference` leaves unvoiced (nil when turned off).
    private let shortWindow: ShortWindow?
    private let bleed: BleedSuppressor
    private let delayEstimator: DelayEstimator
    private let minLag: Int
    private let maxLag: Int
    /// Shortest period the harmonic-reading check may move to with multiples ×3 … ×6 (`harmonicReadingCeiling`).
    private let harmonicReadingMinLag: Float
    private let hop: Int
    private let halfWindow: Int
    private let initialDelay: Int
    private var gate: VoicingGate
    private var octaveGuard: OctaveGuard
    /// Analysis samples still to come before the next frame's window is complete.
    private var untilNextFrame: Int
    private var frameIndex = 0
    /// The previous frame's period when it was voiced, else 0 (voice-share hysteresis).
    private var lastVoicedLag: Float = 0
    private var legatoOnset: LegatoOnset

    public init(sampleRate: Double, configuration: PitchDetectorConfiguration = .init()) {
        precondition(sampleRate >= 8_000, "sample rate \(sampleRate) Hz is too low for singing pitch")
        precondition(configuration.minFrequency > 0 && configuration.maxFrequency > configuration.minFrequency)
        self.sampleRate = sampleRate
        self.configuration = configuration
        let hopSamples = max(1, Int((sampleRate * configuration.hopSeconds).rounded()))
        self.hopSamples = hopSamples
        // Largest whole factor keeping the analysis rate high enough that divides the hop.
        var factor = max(1, Int(sampleRate / configuration.minimumAnalysisRate))
        while factor > 1 && hopSamples % factor != 0 { factor -= 1 }
        let rate = sampleRate / Double(factor)
        analysisRate = rate
        hop = hopSamples / factor
        decimator = Decimator(factor: factor)
        backingDecimator = Decimator(factor: factor)
        secondDecimator = Decimator(factor: factor)
        decimatedSecond = .allocate(capacity: decimator.maxBlock / factor + 1)
        decimatedSecond.initialize(repeating: 0, count: decimator.maxBlock / factor + 1)
        decimated = .allocate(capacity: decimator.maxBlock / factor + 1)
        decimatedBacking = .allocate(capacity: decimator.maxBlock / factor + 1)
        decimated.initialize(repeating: 0, count: decimator.maxBlock / factor + 1)
        decimatedBacking.initialize(repeating: 0, count: decimator.maxBlock / factor + 1)
        minLag = max(2, Int((rate / configuration.maxFrequency).rounded(.down)) - 1)
        maxLag = Int((rate / configuration.minFrequency).rounded(.up)) + 1
        harmonicReadingMinLag = Float(rate / configuration.harmonicReadingCeiling)
        var length = Int((configuration.windowPeriods * rate / configuration.minFrequency).rounded())
        if length % 2 == 0 { length += 1 }
        length = max(length, 2 * maxLag + 3)
        halfWindow = (length - 1) / 2
        lookaheadSamples = halfWindow * factor + decimator.groupDelay
        difference = DifferenceFunction(length: length, maxLag: maxLag)
        let shortMinFrequency = configuration.shortWindowMinFrequency
        if shortMinFrequency > configuration.minFrequency && shortMinFrequency < configuration.maxFrequency {
            let short = ShortWindow(rate: rate, minFrequency: shortMinFrequency, minLag: minLag, configuration: configuration)
            // It must fit inside the main window, whose samples it reads.
            shortWindow = short.halfLength < halfWindow ? short : nil
        } else {
            shortWindow = nil
        }
        let bleedConfig = configuration.bleed
        let maxDelay = max(1, Int((bleedConfig.maxDelaySeconds * rate).rounded()))
        initialDelay = Int((bleedConfig.initialDelaySeconds * rate).rounded())
        history = SampleHistory(capacity: length)
        cutHistory = SampleHistory(capacity: length)
        lowCut = LowFrequencyCut(cutoff: configuration.lowCutFrequency, rate: rate)
        backingLowCut = LowFrequencyCut(cutoff: configuration.lowCutFrequency, rate: rate)
        // The bleed path looks back `primedFrames` hops: at a new alignment its history is read from here.
        let primedFrames = bleedConfig.pathLags.last ?? 0
        backingHistory = SampleHistory(capacity: length + maxDelay + primedFrames * hop)
        secondLowCut = LowFrequencyCut(cutoff: configuration.lowCutFrequency, rate: rate)
        secondHistory = SampleHistory(capacity: length + maxDelay)
        bleed = BleedSuppressor(fftSize: difference.fft.size, window: difference.window, length: length, configuration: bleedConfig)
        delayEstimator = DelayEstimator(
            blockLength: max(256, Int((bleedConfig.delayBlockSeconds * rate).rounded())),
            maxDelay: maxDelay, initialDelay: initialDelay,
            holdTolerance: Int((bleedConfig.delayHoldSeconds * rate).rounded()))
        _ = BandLimitedPeak.weights.count  // made here, never lazily on the audio thread
        gate = VoicingGate(configuration: configuration)
        octaveGuard = OctaveGuard(margin: configuration.octaveJumpMargin)
        legatoOnset = LegatoOnset(frames: configuration.newestReadingFrames)
        untilNextFrame = halfWindow + 1
    }

    deinit {
        decimated.deallocate()
        decimatedBacking.deallocate()
        decimatedSecond.deallocate()
    }

    /// Pushes microphone samples (any count, mono, −1…1) and emits every frame completed by them.
    /// - Parameters:
    ///   - backing: the backing track as played over the same span (same count, same rate),
    ///     when known; turns on bleed suppression for these samples. For a stereo output, the
    ///     mono reference (the mix, or the left channel while vocal reduction cancels the centre).
    ///   - backingSecond: for a stereo output, its side (L − R) / 2 over the same span: the
    ///     suppressor then fits the microphone from both (a microphone hears the speakers in its
    ///     own ratio). Ignored without `backing`.
    public func process(
        _ samples: UnsafeBufferPointer<Float>,
        backing: UnsafeBufferPointer<Float>? = nil,
        backingSecond: UnsafeBufferPointer<Float>? = nil,
        emit: (PitchFrame) -> Void
    ) {
        if let backing { precondition(backing.count == samples.count, "backing must cover the same samples") }
        if let backingSecond { precondition(backingSecond.count == samples.count, "the second channel must cover the same samples") }
        guard let micBase = samples.baseAddress else { return }
        var offset = 0
        while offset < samples.count {
            let n = min(decimator.maxBlock, samples.count - offset)
            let produced = decimator.process(micBase + offset, count: n, into: decimated)
            var useBacking = false, useSecond = false
            if let backingBase = backing?.baseAddress {
                // Same factor, same phase: the backing yields exactly as many samples.
                _ = backingDecimator.process(backingBase + offset, count: n, into: decimatedBacking)
                useBacking = true
                if let secondBase = backingSecond?.baseAddress {
                    _ = secondDecimator.process(secondBase + offset, count: n, into: decimatedSecond)
                    useSecond = true
                }
            }
            for j in 0..<produced {
                let y = decimated[j]
                history.append(y)
                cutHistory.append(lowCut.process(y))
                if useBacking {
                    let b = decimatedBacking[j]
                    backingHistory.append(backingLowCut.process(b))
                    delayEstimator.push(mic: y, backing: b)
                    secondHistory.append(useSecond ? secondLowCut.process(decimatedSecond[j]) : 0)
                }
                untilNextFrame -= 1
                if untilNextFrame == 0 {
                    untilNextFrame = hop
                    emit(analyzeFrame(withBacking: useBacking))
                }
            }
            offset += n
        }
    }

    /// One-shot analysis of a whole signal: one frame per hop from t = 0 to the end
    /// (the end is padded with silence so the last frames are complete).
    /// `backingSecond`: a stereo output's side, as in `process`.
    public func analyze(_ samples: [Float], backing: [Float]? = nil, backingSecond: [Float]? = nil) -> [PitchFrame] {
        reset()
        var frames: [PitchFrame] = []
        let count = samples.isEmpty ? 0 : (samples.count - 1) / hopSamples + 1
        frames.reserveCapacity(count)
        let collect: (PitchFrame) -> Void = { if frames.count < count { frames.append($0) } }
        // The silence after the end completes the last windows.
        let tail = [Float](repeating: 0, count: lookaheadSamples + hopSamples)
        if let backing {
            var aligned = Array(backing.prefix(samples.count))
            aligned += [Float](repeating: 0, count: samples.count - aligned.count)
            var second = backingSecond.map { Array($0.prefix(samples.count)) }
            if second != nil { second! += [Float](repeating: 0, count: samples.count - second!.count) }
            samples.withUnsafeBufferPointer { mic in
                aligned.withUnsafeBufferPointer { reference in
                    // The whole recording is at hand: find where the backing is in it first, so
                    // the frames before the live search's first lock (0.75 s) are cleaned too.
                    let found = findAlignment(mic, backing: reference)
                    reset()
                    if let found { delayEstimator.reset(lockedAt: found) }
                    if let second {
                        second.withUnsafeBufferPointer { process(mic, backing: reference, backingSecond: $0, emit: collect) }
                    } else {
                        process(mic, backing: reference, emit: collect)
                    }
                }
            }
            tail.withUnsafeBufferPointer { process($0, backing: $0, backingSecond: second == nil ? nil : $0, emit: collect) }
        } else {
            samples.withUnsafeBufferPointer { process($0, emit: collect) }
            tail.withUnsafeBufferPointer { process($0, emit: collect) }
        }
        return frames
    }

    /// Where the backing is in the microphone (analysis samples), searched from the start of the
    /// recording up to `alignmentSearchSeconds`, as `process` would find it; nil if it is not
    /// found there. Leaves the decimators and the delay estimator to be reset.
    private func findAlignment(_ mic: UnsafeBufferPointer<Float>, backing: UnsafeBufferPointer<Float>) -> Int? {
        guard let micBase = mic.baseAddress, let backingBase = backing.baseAddress else { return nil }
        let limit = min(mic.count, Int(Self.alignmentSearchSeconds * sampleRate))
        var offset = 0
        while offset < limit && !delayEstimator.isLocked {
            let n = min(decimator.maxBlock, limit - offset)
            let produced = decimator.process(micBase + offset, count: n, into: decimated)
            _ = backingDecimator.process(backingBase + offset, count: n, into: decimatedBacking)
            for j in 0..<produced { delayEstimator.push(mic: decimated[j], backing: decimatedBacking[j]) }
            offset += n
        }
        return delayEstimator.isLocked ? delayEstimator.delay : nil
    }

    /// How much of a recording `analyze` searches for the backing before analysing it.
    static let alignmentSearchSeconds = 30.0

    /// Forgets the stream: the next sample is t = 0 again.
    public func reset() {
        decimator.reset()
        backingDecimator.reset()
        history.reset()
        cutHistory.reset()
        lowCut.reset()
        backingLowCut.reset()
        backingHistory.reset()
        secondDecimator.reset()
        secondLowCut.reset()
        secondHistory.reset()
        bleed.reset()
        delayEstimator.reset(initialDelay: initialDelay)
        gate.reset()
        octaveGuard.reset()
        lastVoicedLag = 0
        legatoOnset.reset()
        untilNextFrame = halfWindow + 1
        frameIndex = 0
    }

    private func analyzeFrame(withBacking: Bool) -> PitchFrame {
        let time = Double(frameIndex) * Double(hopSamples) / sampleRate
        frameIndex += 1
        // Level and energy balance from the raw signal: mean power of the central hop
        // against the whole window (unweighted).
        let window = history.latest(difference.length)
        let (meanPower, centreShare) = VoicingGate.energyBalance(window, count: difference.length, centre: halfWindow, hop: hop)
        let levelDb = meanPower > 1e-12 ? 10 * log10(meanPower) : -120
        _ = difference.load(cutHistory.latest(difference.length))

        // Only once the backing has been found in the microphone (see `DelayEstimator.isLocked`).
        let suppressing = withBacking && delayEstimator.isLocked
        if suppressing {
            let delay = delayEstimator.delay
            if bleed.needsHistory(at: delay) {
                // As many earlier windows as the history holds at this delay (all of them once the
                // stream is long enough): the path then starts with its lags filled.
                let frames = min(bleed.historyFrames, (backingHistory.capacity - difference.length - delay) / hop)
                bleed.primeHistory(
                    earlier: backingHistory.latest(difference.length + frames * hop, skippingNewest: delay),
                    hop: hop, frames: frames)
            }
            let aligned = backingHistory.latest(difference.length, skippingNewest: delay)
            let second = secondHistory.latest(difference.length, skippingNewest: delay)
            bleed.suppress(
                micSpectrum: difference.fft.spectrum, micPower: difference.power, backing: aligned,
                second: second, delay: delay)
        }
        guard difference.evaluate() else {
            gate.reset()
            gate.endFrame(levelDb: levelDb)
            octaveGuard.reset()
            lastVoicedLag = 0
            legatoOnset.reset()
            return PitchFrame(time: time, frequency: 0, clarity: 0, levelDb: levelDb)
        }
        // Set when the magnitude spectrum has answered the octave: the octave guard, which would
        // hold a previous frame read at the 2nd harmonic, then does not overrule it.
        var octaveSettled = false
        var candidate = PeakPicking.yinPeriod(
            cmnd: difference.cumulativeMeanNormalised, normalised: difference.normalised,
            minLag: minLag, maxLag: maxLag, threshold: configuration.yinThreshold,
            lobeMargin: configuration.formantLobeMargin)
        if let longer = PeakPicking.harmonicReading(
            candidate, normalised: difference.normalised, minLag: harmonicReadingMinLag, maxLag: maxLag,
            margin: configuration.harmonicReadingMargin, octaveMargin: configuration.octaveReadingMargin),
            !suppressing || bleed.bearsOutLongerPeriod(longer, over: candidate) {
            // A harmonic was read: the longer period stands (the sub-harmonic check would undo it).
            // With a backing, only if the voice left after suppression has power at the harmonics
            // the longer period adds (suppression itself makes longer lags look more periodic).
            candidate = longer
        } else if let octave = MagnitudeOctave.octaveBelow(
            candidate, difference: difference, maxLag: maxLag, margin: configuration.magnitudeOctaveMargin),
            !suppressing || bleed.bearsOutLongerPeriod(octave, over: candidate) {
            // The power left the octave open and the magnitudes say L is the 2nd harmonic.
            candidate = octave
            octaveSettled = true
        } else {
            candidate = PeakPicking.preferShorterPeriod(
                candidate, normalised: difference.normalised, minLag: minLag, maxLag: maxLag,
                tolerance: configuration.subharmonicTolerance)
        }
        if !octaveSettled && !correctsPreviousOctave(candidate, suppressing: suppressing) {
            candidate = octaveGuard.check(candidate, normalised: difference.normalised, minLag: minLag, maxLag: maxLag)
        }
        let previouslyVoiced = gate.wasVoiced
        var voiced = decideVoicing(
            candidate, levelDb: levelDb, centreShare: centreShare, suppressing: suppressing, previouslyVoiced: previouslyVoiced)
        if !voiced, levelDb >= configuration.minimumLevelDb, let shortWindow,
           let short = shortWindow.estimate(raw: window, cut: cutHistory.latest(difference.length), centreOffset: halfWindow, hop: hop),
           // The main window spans silence or a neighbouring sound beside the note: the short
           // one, centred on the same instant, decides, if it is clearly periodic.
           short.candidate.clarity >= configuration.shortWindowClarity,
           decideVoicing(
            short.candidate, levelDb: levelDb, centreShare: short.centreShare, suppressing: suppressing,
            previouslyVoiced: previouslyVoiced) {
            voiced = true
            candidate = short.candidate
        }
        if voiced, configuration.newestReading,
           let newer = newestReading(window, replacing: candidate, previouslyVoiced: previouslyVoiced, suppressing: suppressing) {
            candidate = newer
        }
        let clarity = min(1, max(0, candidate.clarity))
        let frequency = voiced ? Float(analysisRate) / candidate.lag : 0
        legatoOnset.frame(
            voiced: voiced, previouslyVoiced: previouslyVoiced,
            continuing: continues(candidate.lag, previouslyVoiced: previouslyVoiced))
        lastVoicedLag = voiced ? candidate.lag : 0
        octaveGuard.commit(lag: voiced ? candidate.lag : 0)
        gate.endFrame(levelDb: levelDb)
        return PitchFrame(time: time, frequency: frequency, clarity: clarity, levelDb: levelDb)
    }

    /// The short window over the newest samples the main window holds, read when a voiced frame
    /// does not continue the previous frame's period (a note's first frames, a jump), and on every
    /// frame of a legato note's first `newestReadingFrames`; its period when it is clearly periodic,
    /// more periodic than the main reading (or nearly, the octave above it) and on another note,
    /// else nil. At such a frame the 46 ms main window may still hold the previous note (a legato
    /// step, or its reverberant tail while the new vowel rises) and read it, or the two notes'
    /// common period; the newest 21 ms hear the new note.
    private func newestReading(
        _ window: UnsafePointer<Float>, replacing candidate: PeriodCandidate, previouslyVoiced: Bool, suppressing: Bool
    ) -> PeriodCandidate? {
        // Only a reading, and a voice, the short window could hold three times: a lower voice keeps
        // the main window's reading (the short one would read its harmonics).
        guard let shortWindow, candidate.lag < Float(shortWindow.maxLag), lastVoicedLag < Float(shortWindow.maxLag)
        else { return nil }
        guard !continues(candidate.lag, previouslyVoiced: previouslyVoiced) || legatoOnset.settling,
              let late = shortWindow.estimate(
                raw: window, cut: cutHistory.latest(difference.length),
                centreOffset: 2 * halfWindow - shortWindow.halfLength, hop: hop)?.candidate,
              late.clarity >= configuration.shortWindowClarity
        else { return nil }
        // The 46 ms window is at least as periodic at twice a period as at the period itself, and
        // holds more of the old note there: the octave above it needs a little less.
        let octaveAbove = abs(candidate.lag / late.lag - 2) < PeakPicking.tolerance(2)
        guard late.clarity > candidate.clarity - (octaveAbove ? configuration.newestOctaveAllowance : 0)
        else { return nil }
        // The newest samples' own magnitudes may say their reading is the 2nd harmonic (a man's
        // first formant on it): the main reading an octave under it stands.
        if octaveAbove, MagnitudeOctave.octaveBelow(
            late, difference: shortWindow.difference, maxLag: shortWindow.maxLag, margin: configuration.magnitudeOctaveMargin) != nil {
            return nil
        }
        let interval = abs(log2(late.lag / candidate.lag))
        guard interval > Self.anotherNote else { return nil }
        // A glide carrying on (the previous frame, this reading and the newest one moving the same
        // way, by less than a major third) is read where it is now: the newest samples are later in it.
        if lastVoicedLag > 0, (late.lag < candidate.lag) == (candidate.lag < lastVoicedLag), interval < Self.glideStep {
            return nil
        }
        // Under suppressed bleed the short window hears the backing too: the voice must carry the
        // power at its harmonics, as for any new note.
        if suppressing && bleed.harmonicVoiceShare(lag: late.lag) < configuration.bleed.minimumVoiceShare { return nil }
        return late
    }

    /// Whether `candidate` moves an octave down from the previous frame's period and the magnitudes
    /// bear it out (`MagnitudeOctave.confirms`; under suppressed bleed, with the voice carrying the
    /// harmonics it adds, as for any longer period): the previous frame was read at the 2nd
    /// harmonic and this one corrects it, not a sub-harmonic error for the octave guard to undo.
    private func correctsPreviousOctave(_ candidate: PeriodCandidate, suppressing: Bool) -> Bool {
        let previousLag = octaveGuard.previousLag
        guard previousLag > 0, abs(candidate.lag / (2 * previousLag) - 1) < 0.06,
              MagnitudeOctave.confirms(
                octave: candidate.lag, over: previousLag, difference: difference, maxLag: maxLag,
                margin: configuration.magnitudeOctaveMargin)
        else { return false }
        guard suppressing else { return true }
        guard let previous = PeakPicking.peakNear(previousLag, normalised: difference.normalised, maxLag: maxLag, tolerance: 0.05)
        else { return true }
        return bleed.bearsOutLongerPeriod(candidate, over: previous)
    }

    /// Two readings more than this apart (in octaves: 80 cents) are different notes.
    private static let anotherNote: Float = 80 / 1200
    /// The most a glide moves between the main window's centre and the newest samples (in octaves:
    /// 4 semitones; a fast portamento moves 1–2 semitones in those 12 ms).
    private static let glideStep: Float = 4.0 / 12

    /// Whether a period continues the note of the previous frame (voiced, same period within 3 %).
    private func continues(_ lag: Float, previouslyVoiced: Bool) -> Bool {
        previouslyVoiced && lastVoicedLag > 0 && abs(lag / lastVoicedLag - 1) < 0.03
    }

    /// The voicing gate's decision on one reading of the frame: its range, the voice's share of
    /// the power at its harmonics under suppressed bleed, and hysteresis on a continuing period.
    private func decideVoicing(
        _ candidate: PeriodCandidate, levelDb: Float, centreShare: Float, suppressing: Bool, previouslyVoiced: Bool
    ) -> Bool {
        let clarity = min(1, max(0, candidate.clarity))
        let frequency = Float(analysisRate) / candidate.lag
        let inRange = frequency >= Float(configuration.minFrequency) * 0.97
            && frequency <= Float(configuration.maxFrequency) * 1.03
        let voiceShare = suppressing ? bleed.harmonicVoiceShare(lag: candidate.lag) : 1
        // Hysteresis, as for clarity: a note the singer is already holding keeps going on less of
        // its own power than a new one needs to start.
        let continuing = continues(candidate.lag, previouslyVoiced: previouslyVoiced)
        let neededShare = continuing ? configuration.bleed.holdVoiceShare : configuration.bleed.minimumVoiceShare
        let mostlyVoice = voiceShare >= neededShare
        return gate.decide(
            clarity: inRange && mostlyVoice ? clarity : 0, levelDb: levelDb, centreShare: centreShare,
            holdClarity: suppressing && continuing ? configuration.bleed.holdClarity : nil,
            previouslyVoiced: previouslyVoiced, continuing: continuing)
    }
}
