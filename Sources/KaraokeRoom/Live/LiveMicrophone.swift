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
    /// A phone singer seat's audio path (the seat source is then "phone"); nil for a PulseAudio microphone.
    public var phone: PhoneMicSlot?

    public init(channel: CaptureChannel, source: String?, inputLatency: @escaping @Sendable () -> Double? = { nil },
                losses: InputLossLog? = nil) {
        self.channel = channel
        self.source = source
        self.inputLatency = inputLatency
        self.losses = losses
    }

    /// A phone seat as a microphone: its ring, its lost spans; scored only while seated.
    public init(phone: PhoneMicSlot) {
        self.init(channel: phone.channel, source: nil, losses: phone.losses)
        self.phone = phone
    }

    /// Whether a singer uses it now: a PulseAudio microphone always, a phone seat while taken.
    public var isSeated: Bool { phone?.isSeated ?? true }

    /// How far behind the clock lines may wait for its audio: a phone's frames cross a network,
    /// so its lines wait `PhoneMicSlot.lineWait`; audio that comes later than that is not heard,
    /// and those lines are stored marked (`ClosedLine`).
    var maximumLag: Double { phone == nil ? 0.25 : PhoneMicSlot.lineWait }

    /// Every channel of `capture` as a microphone, its latency read from the engine.
    public static func all(of capture: CaptureEngine, source: String?) -> [LiveMicrophone] {
        capture.channels.map { LiveMicrophone(channel: $0, source: source, inputLatency: { capture.inputLatency }, losses: capture.losses) }
    }
}
