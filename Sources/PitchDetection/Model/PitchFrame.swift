/// One analysis frame of the singing-pitch detector.
///
/// `time` is the **centre of the analysis window**: seconds from the stream's first sample
/// (sample index 0 is t = 0) to the frame's analysis point. Frame `k` has
/// `time = k × hopSamples / sampleRate` exactly (10 ms hop by default; at rates where
/// 10 ms is not a whole number of samples the hop is rounded, e.g. 221 samples at 22.05 kHz).
/// The window reaches `PitchDetector.lookaheadSeconds` past `time`; the frame is emitted
/// as soon as that last sample has been pushed.
public struct PitchFrame: Sendable, Equatable {
    /// Seconds from the first sample of the stream to the centre of the analysis window.
    public var time: Double
    /// Fundamental frequency in Hz; 0 means unvoiced (no pitch).
    public var frequency: Float
    /// Periodicity strength 0…1 (normalised autocorrelation at the chosen period).
    public var clarity: Float
    /// Level of the (band-limited) microphone signal in the window, dBFS (−120 for silence).
    public var levelDb: Float

    public init(time: Double, frequency: Float, clarity: Float, levelDb: Float) {
        self.time = time
        self.frequency = frequency
        self.clarity = clarity
        self.levelDb = levelDb
    }

    public var isVoiced: Bool { frequency > 0 }
}
