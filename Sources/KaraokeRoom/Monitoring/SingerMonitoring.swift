import Dispatch
import EventServer
import Synchronization

/// Mic monitoring ("hear yourself") per singer, on top of a source-level `RoomMonitor`.
///
/// Singer i's microphone is `sources[i]`, in the order `serve` opens them (`--mic` sources in
/// order; in split mode a stereo source gives two singers). The sound server loops back whole
/// sources, so singers sharing a source share its monitor: switching either switches the
/// source, and both report it.
///
/// The room reads the state at any time and asks for changes; the loads and unloads run in
/// order on a private queue, so a slow sound server never holds up the room, and the outcome
/// comes back through a completion.
public final class SingerMonitoring: Sendable {
    /// Microphone source of each singer (index = singer).
    public let sources: [String]
    /// Where monitored microphones are heard (nil = the default sink).
    public let sink: String?
    /// Requested monitoring delay, seconds.
    public let latency: Double
    private let monitor: any RoomMonitor
    private let work = DispatchQueue(label: "karaoke.monitor")
    private let monitored = Mutex<Set<String>>([])

    public init(monitor: any RoomMonitor, sources: [String], sink: String?, latency: Double) {
        self.monitor = monitor
        self.sources = sources
        self.sink = sink
        self.latency = latency
    }

    /// Whether the singer's microphone is heard now; nil when the singer has no microphone.
    public func isMonitored(singer: Int) -> Bool? {
        guard sources.indices.contains(singer) else { return nil }
        let source = sources[singer]
        return monitored.withLock { $0.contains(source) }
    }

    /// The singers with `monitor` filled in for those who have a microphone.
    public func annotated(_ singers: [SingerPayload]) -> [SingerPayload] {
        singers.map { singer in
            var singer = singer
            singer.monitor = isMonitored(singer: singer.singer)
            return singer
        }
    }

    /// Switches the singer's source on or off in the background. Throws at once for a singer
    /// without a microphone; otherwise `done` is called (on the monitoring queue) with nil or
    /// the failure to report to whoever asked.
    func set(singer: Int, on: Bool, done: @escaping @Sendable (RoomCommandError?) -> Void) throws {
        guard sources.indices.contains(singer) else {
            throw RoomCommandError("badArguments", "singer \(singer) has no microphone to monitor (\(sources.count) microphone channel(s))")
        }
        let source = sources[singer]
        work.async { [self] in
            do {
                try apply(source: source, on: on)
                done(nil)
            } catch {
                done(RoomCommandError("failed", "cannot monitor microphone \(source): \(error)"))
            }
        }
    }

    /// Switches every microphone on or off and waits (`serve --monitor` at start). Returns
    /// one message per source that failed.
    public func setAll(on: Bool) -> [String] {
        work.sync {
            var failures: [String] = []
            for source in distinctSources {
                do { try apply(source: source, on: on) } catch { failures.append("\(source): \(error)") }
            }
            return failures
        }
    }

    /// Switches every microphone off and waits. Call before the process exits: the sound
    /// server keeps a loopback after its client is gone.
    public func close() { _ = setAll(on: false) }

    /// On `work`.
    private func apply(source: String, on: Bool) throws {
        if on {
            try monitor.enable(source: source, sink: sink, latency: latency)
            _ = monitored.withLock { $0.insert(source) }
        } else {
            monitor.disable(source: source)
            _ = monitored.withLock { $0.remove(source) }
        }
    }

    private var distinctSources: [String] {
        var seen = Set<String>()
        return sources.filter { seen.insert($0).inserted }
    }
}
