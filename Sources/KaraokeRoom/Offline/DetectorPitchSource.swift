import PitchDetection
import Scoring
import SongModel

/// Pitch samples from our `PitchDetector` (one per detector frame, 10 ms apart by default).
public struct DetectorPitchSource: PitchSampleSource {
    public var configuration: PitchDetectorConfiguration

    public init(configuration: PitchDetectorConfiguration = .init()) {
        self.configuration = configuration
    }

    public func pitchSamples(of mono: [Float], sampleRate: Double) -> [PitchSample] {
        pitchSamples(of: mono, sampleRate: sampleRate, backing: nil)
    }

    /// With `backing`, the detector suppresses the backing bleeding into the recording.
    public func pitchSamples(of mono: [Float], sampleRate: Double, backing: [Float]?) -> [PitchSample] {
        pitchSamples(of: mono, sampleRate: sampleRate, backing: backing, backingSide: nil)
    }

    /// With `backingSide` too (a stereo output's side), the suppressor fits the recording's bleed
    /// from both played channels.
    public func pitchSamples(of mono: [Float], sampleRate: Double, backing: [Float]?, backingSide: [Float]?) -> [PitchSample] {
        var configuration = configuration
        // Until the suppressor has its own estimate, assume the bleed arrives just as the reference's lead.
        if backing != nil && configuration.bleed.initialDelaySeconds == 0 {
            configuration.bleed.initialDelaySeconds = BackingReference.leadSeconds
        }
        let detector = PitchDetector(sampleRate: sampleRate, configuration: configuration)
        return detector.analyze(mono, backing: backing, backingSecond: backing == nil ? nil : backingSide).map(Self.sample)
    }

    /// Frame time is the centre of the analysis window: when the sound was in the recording.
    static func sample(_ frame: PitchFrame) -> PitchSample {
        PitchSample(
            time: frame.time,
            midi: frame.isVoiced ? MusicalPitch.midi(fromHz: Double(frame.frequency)) : nil,
            levelDb: Double(frame.levelDb))
    }
}
