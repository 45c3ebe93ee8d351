import EventServer

/// What the room's `state` shows about one singer's microphone.
public struct MicrophoneReport: Sendable, Equatable {
    /// The capture stream's measured input latency, seconds; nil until the sound server timed it.
    public var inputLatency: Double?
    public var micDelay: EffectiveMicDelay

    public init(inputLatency: Double?, micDelay: EffectiveMicDelay) {
        self.inputLatency = inputLatency
        self.micDelay = micDelay
    }
}

extension SingerPayload {
    /// This seat with its microphone's figures filled in; without a report they stay absent.
    func reporting(_ report: MicrophoneReport?) -> SingerPayload {
        var singer = self
        singer.inputLatencyMs = report?.inputLatency?.stateMilliseconds
        singer.effectiveMicDelayMs = report?.micDelay.seconds.stateMilliseconds
        singer.micDelaySource = report?.micDelay.source
        return singer
    }
}
