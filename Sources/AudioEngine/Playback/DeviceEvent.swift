/// Something happened to the audio devices; delivered on a background thread, never the audio one.
public enum DeviceEvent: Sendable, Equatable, CustomStringConvertible {
    /// The output sink disappeared; playback was paused.
    case outputLost(device: String?)
    /// The PulseAudio server went away; playback was paused.
    case serverLost
    /// The output is back (playback stays paused until `play()`).
    case outputRestored(device: String?)
    /// A capture source disappeared (or the server went away); its singers get no samples.
    case inputLost(source: String?)
    /// The capture source is back and recording again.
    case inputRestored(source: String?)

    public var description: String {
        switch self {
        case .outputLost(let d): "output device \(d ?? "(default)") disappeared: playback paused"
        case .serverLost: "PulseAudio server went away: playback paused"
        case .outputRestored(let d): "output device \(d ?? "(default)") is back"
        case .inputLost(let s): "input \(s ?? "(default)") disappeared"
        case .inputRestored(let s): "input \(s ?? "(default)") is back"
        }
    }
}
