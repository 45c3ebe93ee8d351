import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Catches SIGINT and SIGTERM from the moment it is created (so a signal that arrives
/// while the server is still starting is not lost), and lets `serve` await the first one.
/// `@unchecked`: `sources` is set once in `init`; cancelling a dispatch source is thread-safe.
final class TerminationSignals: @unchecked Sendable {
    private struct Waiting {
        var arrived = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    private let queue = DispatchQueue(label: "karaoke.signals")
    private let state = Mutex(Waiting())
    private let sources: [any DispatchSourceSignal]

    init() {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: queue))
        }
        self.sources = sources
        for source in sources {
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
        }
    }

    private func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.arrived = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// Returns once SIGINT or SIGTERM has arrived (at once if one already has).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.arrived { return true }
                state.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        sources.forEach { $0.cancel() }
    }
}
