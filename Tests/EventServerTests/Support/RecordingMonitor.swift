import KaraokeRoom
import Synchronization

/// A `RoomMonitor` that records what the room asked the sound server to do, and refuses the
/// sources it is told to (as PulseAudio does when a module cannot be loaded).
final class RecordingMonitor: RoomMonitor {
    enum Call: Equatable {
        case enable(source: String, sink: String?, latency: Double)
        case disable(source: String)
    }
    struct Refused: Error, CustomStringConvertible {
        let source: String
        var description: String { "module-loopback refused \(source)" }
    }

    private let state = Mutex<(calls: [Call], refusing: Set<String>)>(([], []))

    init(refusing: Set<String> = []) { state.withLock { $0.refusing = refusing } }

    var calls: [Call] { state.withLock { $0.calls } }

    func enable(source: String, sink: String?, latency: Double) throws {
        try state.withLock {
            $0.calls.append(.enable(source: source, sink: sink, latency: latency))
            if $0.refusing.contains(source) { throw Refused(source: source) }
        }
    }

    func disable(source: String) { state.withLock { $0.calls.append(.disable(source: source)) } }
}
