import KaraokeRoom
import Synchronization

/// A `RoomMonitor` that records what the room asked the sound server to do, refuses the
/// sources it is told to (as PulseAudio does when a module cannot be loaded), and plays the
/// sound server taking an enabled loopback away and bringing it back (`deviceLost`/`deviceBack`).
final class RecordingMonitor: RoomMonitor {
    enum Call: Equatable {
        case enable(source: String, sink: String?, latency: Double)
        case disable(source: String)
    }
    struct Refused: Error, CustomStringConvertible {
        let source: String
        var description: String { "module-loopback refused \(source)" }
    }

    private let state = Mutex<(calls: [Call], refusing: Set<String>, enabled: Set<String>)>(([], [], []))
    private let observer = Mutex<(@Sendable (String, Bool) -> Void)?>(nil)

    init(refusing: Set<String> = []) { state.withLock { $0.refusing = refusing } }

    var calls: [Call] { state.withLock { $0.calls } }

    func enable(source: String, sink: String?, latency: Double) throws {
        try state.withLock {
            $0.calls.append(.enable(source: source, sink: sink, latency: latency))
            if $0.refusing.contains(source) { throw Refused(source: source) }
            $0.enabled.insert(source)
        }
    }

    func disable(source: String) {
        state.withLock {
            $0.calls.append(.disable(source: source))
            $0.enabled.remove(source)
        }
    }

    func observe(_ handler: @escaping @Sendable (String, Bool) -> Void) { observer.withLock { $0 = handler } }

    /// The device of an enabled `source` went away: its loopback is gone (reported as the real
    /// monitor does; nothing for a source that is not enabled).
    func deviceLost(_ source: String) { report(source, heard: false) }

    /// The device is back and the loopback loaded again.
    func deviceBack(_ source: String) { report(source, heard: true) }

    private func report(_ source: String, heard: Bool) {
        guard state.withLock({ $0.enabled.contains(source) }) else { return }
        observer.withLock { $0 }?(source, heard)
    }
}
