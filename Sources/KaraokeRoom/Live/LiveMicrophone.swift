import AudioEngine

/// One singer's microphone: a capture channel, the PulseAudio source it comes from
/// (the calibration key; nil = the default source), and how to read its measured input latency.
public struct LiveMicrophone: Sendable {
    public var channel: CaptureChannel
    public var source: String?
    /// The capture stream's input latency in seconds (nil while unknown); read for the room's
    /// state, so it may take a lock briefly but never waits on the sound server.
    public var inputLatency: @Sendable () -> Double?
    /// When the source was lost (nil: never known lost); lines sung then are stored marked.
    public var losses: InputLossLog?

    public init(channel: CaptureChannel, source: String?, inputLatency: @escaping @Sendable () -> Double? = { nil },
                losses: InputLossLog? = nil) {
        self.channel = channel
        self.source = source
        self.inputLatency = inputLatency
        self.losses = losses
    }

    /// Every channel of `capture` as a microphone, its latency read from the engine.
    public static func all(of capture: CaptureEngine, source: String?) -> [LiveMicrophone] {
        capture.channels.map { LiveMicrophone(channel: $0, source: source, inputLatency: { capture.inputLatency }, losses: capture.losses) }
    }
}
