import Scoring

/// Turns audio into pitch samples. The seam between offline scoring and the detector,
/// so tests can check the pipeline's time handling independently of detector accuracy.
public protocol PitchSampleSource: Sendable {
    /// Samples stamped in seconds from the first sample of `mono`.
    func pitchSamples(of mono: [Float], sampleRate: Double) -> [PitchSample]
}
