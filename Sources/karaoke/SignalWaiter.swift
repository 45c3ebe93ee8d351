import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Catches SIGINT and SIGTERM from the moment it is created, and lets `serve` await the first one.
/// One that arrives before `wait()` (the server is still starting: opening the sound server,
/// reading songs, which may take long or block) ends the process at once with status 128+signal,
/// since nothing is running yet that a clean stop would have to close.
/// `@unchecked`: `sources` is set once in `init`; cancelling a dispatch source is thread-safe.
final class TerminationSignals: @unchecked Sendable {
    private struct Waiting {
        var arrived = false
        /// Set once the server runs (`running()`): from then on a signal means a clean stop.
        var waiting = false
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
            let number = source.handle
            source.setEventHandler { [weak self] in self?.fire(Int32(number)) }
            source.resume()
        }
    }

    private func fire(_ number: Int32) {
        if !state.withLock({ $0.waiting }) {
            FileHandle.standardError.write(Data("karaoke: stopped by signal \(number) during start-up\n".utf8))
            exit(128 + number)
        }
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.arrived = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// The server is up: a signal from now on stops it cleanly, even one that arrives before
    /// `wait()` (a test that reads "Listening" and sends SIGTERM at once got 128+15 when the
    /// signal fell between the print and `wait()`). Call before announcing the server.
    func running() {
        state.withLock { $0.waiting = true }
    }

    /// Returns once SIGINT or SIGTERM has arrived (at once if one already has).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.waiting = true
                if state.arrived { return true }
                state.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        sources.forEach { $0.cancel() }
    }
}
