/// What a singer's "hear yourself" switch is doing (`SingerMonitoring.status(singer:)`).
public enum MonitorStatus: Sendable, Equatable {
    /// Switched off.
    case off
    /// Switched on, and the microphone is heard through the speakers.
    case heard
    /// Switched on, but the microphone, the speakers or the sound server is gone for now; the
    /// microphone is heard again by itself when they are back.
    case waiting
}
