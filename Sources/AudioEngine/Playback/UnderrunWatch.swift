import Foundation
import Synchronization

/// Reports, off the audio thread, each time the speakers went silent because the playback
/// buffer ran dry: the audio thread only counts (`PlaybackEngine.underruns`), a watcher
/// thread looks every `interval` and tells `report` how many are new and how many in all.
public final class UnderrunWatch: Sendable {
    /// Shared with the watcher thread, which must not keep the watch itself alive.
    private final class StopFlag: Sendable {
        let stopped = Atomic<Bool>(false)
    }

    private let flag = StopFlag()

    public init(engine: PlaybackEngine, interval: Double = 2,
                report: @escaping @Sendable (_ new: Int, _ total: Int) -> Void) {
        let thread = Thread { [flag, weak engine] in
            var seen = engine?.underruns ?? 0
            while !flag.stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: interval)
                guard let engine, !flag.stopped.load(ordering: .acquiring) else { return }
                let total = engine.underruns
                if total > seen { report(total - seen, total) }
                seen = total
            }
        }
        thread.name = "karaoke-underrun-watch"
        thread.start()
    }

    public func stop() { flag.stopped.store(true, ordering: .releasing) }

    deinit { stop() }
}
