/// One pitch observation of a singer, the engine's only input.
///
/// `time` is media time of the backing track (seconds) at the moment the sound
/// was *captured*; the session subtracts the microphone delay itself, so callers
/// stamp samples with the playback position they had when the audio arrived.
public struct PitchSample: Sendable, Equatable, Codable {
    /// Media seconds when captured, before mic-delay correction.
    public var time: Double
    /// Fractional MIDI note number, or nil when the detector heard no pitch.
    public var midi: Double?
    /// Signal level in dBFS.
    public var levelDb: Double

    public init(time: Double, midi: Double?, levelDb: Double) {
        self.time = time
        self.midi = midi
        self.levelDb = levelDb
    }
}
