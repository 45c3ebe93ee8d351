import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Suspends until SIGINT or SIGTERM arrives (handled through dispatch, not a C handler).
enum SignalWaiter {
    static func waitForTermination() async {
        let queue = DispatchQueue(label: "karaoke.signals")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.sync {
                var sources: [any DispatchSourceSignal] = []
                var resumed = false
                for number in [SIGINT, SIGTERM] {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler {
                        guard !resumed else { return }
                        resumed = true
                        sources.forEach { $0.cancel() }
                        continuation.resume()
                    }
                    source.resume()
                    sources.append(source)
                }
            }
        }
    }
}
