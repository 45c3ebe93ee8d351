import Scoring

/// Turns audio into pitch samples. The seam between offline scoring and the detector,
/// so tests can check the pipeline's time handling independently of detector accuracy.
public protocol PitchSampleSource: Sendable {
    /// Samples stamped in seconds from the first sample of `mono`.
    func pitchSamples(of mono: [Float], sampleRate: Double) -> [PitchSample]
    /// The same, with the backing as played over the same span (same rate, starting with
    /// `mono`) as the bleed reference. Sources that cannot use it ignore it.
    func pitchSamples(of mono: [Float], sampleRate: Double, backing: [Float]?) -> [PitchSample]
    /// The same with a stereo output's side, (L − R) / 2 as played, beside the mono `backing`
    /// (`PlayedBacking.renderChannels`). Sources that cannot use it ignore it.
    func pitchSamples(of mono: [Float], sampleRate: Double, backing: [Float]?, backingSide: [Float]?) -> [PitchSample]
}

extension PitchSampleSource {
    public func pitchSamples(of mono: [Float], sampleRate: Double, backing: [Float]?) -> [PitchSample] {
        pitchSamples(of: mono, sampleRate: sampleRate)
    }

    public func pitchSamples(of mono: [Float], sampleRate: Double, backing: [Float]?, backingSide: [Float]?) -> [PitchSample] {
        pitchSamples(of: mono, sampleRate: sampleRate, backing: backing)
    }
}
