import RoomProtocol

/// The measured latencies one `state` carries (output, and each singer's microphone input), to
/// tell when fresh readings are worth another `state` in a room that sends none periodically.
struct LatencyReadings: Equatable {
    var output: Double?
    var inputs: [Int: Double] = [:]

    init() {}

    init(_ state: StatePayload) {
        output = state.outputLatencyMs
        for singer in state.singers { inputs[singer.singer] = singer.inputLatencyMs }
    }

    /// A reading appeared or vanished (a stream opened, a device was lost), or moved by at
    /// least `toleranceMs`; smaller moves are the buffer's normal breathing.
    func differs(from other: LatencyReadings, toleranceMs: Double = 5) -> Bool {
        if Self.differs(output, other.output, toleranceMs) { return true }
        return Set(inputs.keys).union(other.inputs.keys).contains { Self.differs(inputs[$0], other.inputs[$0], toleranceMs) }
    }

    private static func differs(_ a: Double?, _ b: Double?, _ toleranceMs: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): false
        case let (a?, b?): abs(a - b) >= toleranceMs
        default: true
        }
    }
}
