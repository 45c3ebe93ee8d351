import RoomProtocol

/// The mic delay live scoring subtracts for one singer, and where it comes from.
public struct EffectiveMicDelay: Sendable, Equatable {
    public var seconds: Double
    public var source: MicDelaySource

    public init(seconds: Double, source: MicDelaySource) {
        self.seconds = seconds
        self.source = source
    }

    /// The room's setting when it is set (non-zero: 0 means "not set", as the remote sends it),
    /// else the microphone's calibration, else the server's default.
    public static func resolve(roomSettingMs: Double?, calibrated: Double?, defaultDelay: Double) -> EffectiveMicDelay {
        if let ms = roomSettingMs, ms != 0 { return EffectiveMicDelay(seconds: ms / 1000, source: .room) }
        if let calibrated { return EffectiveMicDelay(seconds: calibrated, source: .calibrated) }
        return EffectiveMicDelay(seconds: defaultDelay, source: .default)
    }
}
