import RoomProtocol

/// What the room's `state` shows about one singer's microphone.
public struct MicrophoneReport: Sendable, Equatable {
    /// The capture stream's measured input latency, seconds; nil until the sound server timed it.
    public var inputLatency: Double?
    public var micDelay: EffectiveMicDelay
    /// A phone seat's network status ("ok", "unstable", "lost"); nil for other microphones.
    public var phoneStatus: String?
    /// A phone seat whose timing moved since its calibration (`CalibrationDrift`); nil for other microphones.
    public var needsCalibration: Bool?
    /// The part of `micDelay` that follows such a seat's move (seconds); nil when none does.
    public var followedMove: Double?

    public init(inputLatency: Double?, micDelay: EffectiveMicDelay, phoneStatus: String? = nil, needsCalibration: Bool? = nil,
                followedMove: Double? = nil) {
        self.inputLatency = inputLatency
        self.micDelay = micDelay
        self.phoneStatus = phoneStatus
        self.needsCalibration = needsCalibration
        self.followedMove = followedMove
    }
}

extension SingerPayload {
    /// This seat with its microphone's figures filled in; without a report they stay absent.
    func reporting(_ report: MicrophoneReport?) -> SingerPayload {
        var singer = self
        singer.inputLatencyMs = report?.inputLatency?.stateMilliseconds
        singer.effectiveMicDelayMs = report?.micDelay.seconds.stateMilliseconds
        singer.micDelaySource = report?.micDelay.source
        if let status = report?.phoneStatus { singer.phoneStatus = status }
        singer.needsCalibration = report?.needsCalibration
        singer.micDelayMovedMs = report?.followedMove?.stateMilliseconds
        return singer
    }
}
