/// Tunable parameters of `PitchDetector`. The defaults are the ones measured in docs/pitch.md.
public struct PitchDetectorConfiguration: Sendable, Equatable {
    /// Lowest and highest fundamental searched, Hz (C2…C#6 by default).
    public var minFrequency: Double = 65
    public var maxFrequency: Double = 1100
    /// Distance between frames, seconds (rounded to whole input samples).
    public var hopSeconds: Double = 0.010
    /// Analysis window length in periods of `minFrequency` (3 periods: the autocorrelation
    /// is reliable up to a third of the window once divided by the window's own autocorrelation).
    public var windowPeriods: Double = 3
    /// Internal analysis rate is the input rate divided by a whole factor, staying at or above this
    /// (12 kHz from 48 kHz, 14.7 kHz from 44.1 kHz, 16 kHz unchanged): voice harmonics up to
    /// 5.4 kHz carry the period; more bandwidth only costs FFT time.
    public var minimumAnalysisRate: Double = 11_000
    /// YIN absolute threshold on the cumulative-mean-normalised difference: the first dip
    /// below it is taken (prevents sub-harmonic, octave-too-low picks).
    public var yinThreshold: Float = 0.35
    /// A peak beyond the first dip's cluster but short of its octave replaces the dip when it is
    /// more periodic by more than this (the dip was a formant lobe j·T/k of a voice whose power
    /// is in its fundamental and one high harmonic k).
    public var formantLobeMargin: Float = 0.05
    /// Voicing: periodicity needed to start a voiced run and to keep it going (hysteresis).
    public var voicingOnsetClarity: Float = 0.50
    public var voicingHoldClarity: Float = 0.40
    /// Lowest fundamental (Hz) of the short second window that re-reads the frames the main window
    /// leaves unvoiced (note onsets and ends, see `ShortWindow`); 0 turns it off. Its length is
    /// `windowPeriods` periods of this.
    public var shortWindowMinFrequency: Double = 140
    /// Periodicity the short window's reading needs (above the gate's own thresholds: 21 ms of a
    /// consonant's noise is periodic by chance more often than 46 ms; 0.5 voiced 1–4 points more
    /// of the rests for 0.2 points of RPA, docs/pitch.md, "Configuration").
    public var shortWindowClarity: Float = 0.7
    /// A voiced frame that does not continue the previous frame's period is read again on the short
    /// window over the newest samples, whose reading (at `shortWindowClarity`, more periodic, on
    /// another note) replaces the main one: at a note's first frames the main window can still hold
    /// the previous note (docs/pitch.md, "Configuration"). Needs the short window.
    public var newestReading = true
    /// A note reached from another voiced note (a legato step, or a vowel rising out of the previous
    /// note's reverberant tail) has this many frames after its first read on the newest samples
    /// too, although the main reading continues itself: the main window can hold both notes for
    /// 70 ms and read their common period all along. 6–15 frames measure alike; 0 turns it off
    /// (docs/pitch.md, "Configuration").
    public var newestReadingFrames = 10
    /// The newest reading an octave above the main one replaces it at this much less periodicity:
    /// a window is at least as periodic at twice a period as at the period, and the 46 ms window
    /// holds more of the old note. 0.02 measured best (0.05 reads a man's harmonics).
    public var newestOctaveAllowance: Float = 0.02
    /// Voicing: the window must be at least this loud (dBFS).
    public var minimumLevelDb: Float = -60
    /// A frame carrying on the previous voiced frame's period (a held note fading) stays voiced
    /// down to this level, while its level falls by at most `holdFallDbPerFrame` a frame: a sung
    /// fade, not the reverberation after the voice stopped (60 dB per RT60: 2 dB a frame in a
    /// 0.3 s room). docs/pitch.md, "Configuration".
    public var holdLevelDb: Float = -70
    public var holdFallDbPerFrame: Float = 1
    /// Voicing: the centre of the window must carry at least this share of the window's
    /// mean power, so that a note does not "leak" into the silence half a window away. Low
    /// enough for a note's first frame, whose vowel is still rising (0.12 left 0.14 % of the
    /// voiced frames of real voices unvoiced there; docs/pitch.md, "Configuration").
    public var centreEnergyRatio: Float = 0.05
    /// First-order high-pass on the analysis signal, Hz (0 = off): keeps a bass line from
    /// imposing its period on the voice (see `LowFrequencyCut`).
    public var lowCutFrequency: Double = 400
    /// Sub-harmonic check: half (or a third of) the chosen period is taken instead when its
    /// periodicity is at most this much lower.
    public var subharmonicTolerance: Float = 0.20
    /// Harmonic-reading check: a multiple (×3 … ×6) of the first-dip period is taken instead
    /// when it is more periodic by more than this (low voices read at a formant harmonic).
    public var harmonicReadingMargin: Float = 0.10
    /// Highest fundamental (Hz) the harmonic-reading check may move to with multiples ×3 … ×6:
    /// they are for bass and baritone voices (E2…E4); above, a voice over a chord could trade its
    /// period for the chord's.
    public var harmonicReadingCeiling: Double = 330
    /// The octave, at any pitch: twice the first-dip period is taken when it is more periodic by
    /// more than this (or `harmonicReadingMargin` if smaller): a voice read at its 2nd harmonic,
    /// where its first formant sits (docs/pitch.md, "Configuration").
    public var octaveReadingMargin: Float = 0.05
    /// Where the power autocorrelation leaves the octave open (2·L at least as periodic as L and
    /// standing out over 3·L), 2·L is taken when the magnitude spectrum's autocorrelation is higher
    /// there than at L by more than this (`MagnitudeOctave`; docs/pitch.md, "Configuration").
    /// Above 1 turns it off.
    public var magnitudeOctaveMargin: Float = 0.15
    /// Octave guard: a jump of about an octave away from the previous frame's pitch is only
    /// accepted when its periodicity is no worse than the previous octave's minus this margin.
    public var octaveJumpMargin: Float = 0.08

    /// Bleed suppression (used only when a backing signal is passed).
    public var bleed = BleedConfiguration()

    public init() {}
}

/// Parameters of the backing-track bleed suppressor.
public struct BleedConfiguration: Sendable, Equatable {
    /// Largest delay of the backing in the microphone searched by the aligner, seconds.
    public var maxDelaySeconds: Double = 0.25
    /// Voicing with a backing: at the harmonics of the chosen period, at least this share of the
    /// microphone's power must be left after subtracting the bleed (else the period is the
    /// backing's, not the singer's).
    public var minimumVoiceShare: Float = 0.1
    /// The same for a frame continuing a voiced run at the same period (within 3 %): a held note's
    /// tail, quieter than the backing, keeps less of the power at its harmonics after subtraction.
    public var holdVoiceShare: Float = 0.05
    /// Clarity needed by such a continuing frame (the gate's own hold threshold is 0.40): subtraction
    /// lowers the periodicity of what is left of a quiet voice.
    public var holdClarity: Float = 0.30
    /// Harmonic-reading check with a backing: at the harmonics the longer period adds, at least
    /// this share of the microphone's power must be left after subtraction (they are the voice's).
    public var addedHarmonicVoiceShare: Float = 0.35
    /// Delay assumed before the first estimate is ready, seconds.
    public var initialDelaySeconds: Double = 0
    /// Over-subtraction factor on the estimated bleed power.
    public var overSubtraction: Float = 2.0
    /// Spectral floor: the cleaned power never drops below this share of the mean bleed power
    /// per bin (flat, so a bleed-only frame is left without periodicity).
    public var spectralFloor: Float = 0.01
    /// Smoothing of the per-bin bleed transfer estimate (per frame; 0.97 ≈ 0.33 s). Longer
    /// memories protect a voice doubling a backing note better but left more reverberant
    /// bleed unexplained (docs/pitch.md). 0.995 (≈ 2 s) since the delay holds still: with the
    /// path converging over 10 s (0.999), a voice singing along with the backing was partly
    /// explained by it, and at −20 dB the reference scored 39 under none (docs/room-evaluation.md).
    public var transferSmoothing: Float = 0.995
    /// Lags (in hops, ascending, the first 0) of the backing frames the bleed path is estimated
    /// over, per bin (`ConvolutiveBleedPath`): the room's reverberation is heard through earlier
    /// frames. `[0]` is the single-frame path.
    public var pathLags: [Int] = [0, 2, 4, 6, 9, 12, 16, 20, 25, 30, 40]
    /// Ridge on the path's normal equations, as a share of their mean diagonal.
    public var pathRidge: Float = 0.01
    /// Independent observations per averaged frame, for the path's overfitting correction
    /// (`ConvolutiveBleedPath`: the share a fit explains by chance is n taps / N frames).
    public var pathIndependence: Float = 0.75
    /// The path filter is re-solved every this many frames (the statistics are updated every frame).
    public var pathSolveInterval: Int = 4
    /// A bin's bleed gain is capped at this multiple of the median gain of its band (1/16 of the spectrum)
    /// (0 = no cap).
    public var gainCeiling: Float = 4
    /// Reverberation tail: per-frame (10 ms) decay of the smoothed bleed power, and its weight
    /// in the bleed estimate.
    public var tailDecay: Float = 0.9
    public var tailWeight: Float = 1
    /// Length of the cross-correlation block for delay estimation, seconds.
    public var delayBlockSeconds: Double = 0.5
    /// A delay estimate within this of the current one leaves the alignment (and the bleed
    /// path's statistics) alone; a fixed sub-window misalignment is only a phase to the path.
    public var delayHoldSeconds: Double = 0.005

    public init() {}
}
