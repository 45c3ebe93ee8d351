import AudioEngine

/// One singer's microphone: a capture channel and the PulseAudio source it comes from
/// (the calibration key; nil = the default source).
public struct LiveMicrophone: Sendable {
    public var channel: CaptureChannel
    public var source: String?

    public init(channel: CaptureChannel, source: String?) {
        self.channel = channel
        self.source = source
    }
}
