import Dispatch
import RoomProtocol
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
///
/// A switched-on source whose device goes away stays on, as `.waiting`: the monitor reloads it
/// when the device is back, and `observe` tells the room about both changes.
public final class SingerMonitoring: Sendable {
    /// Microphone source of each singer (index = singer).
    public let sources: [String]
    /// Where monitored microphones are heard (nil = the default sink).
    public let sink: String?
    /// Requested monitoring delay, seconds.
    public let latency: Double
    private let monitor: any RoomMonitor
    private let work = DispatchQueue(label: "karaoke.monitor")
    /// Sources switched on, and those of them whose loopback is gone for now (the monitor's word).
    private let switches = Mutex<(on: Set<String>, waiting: Set<String>)>(([], []))
    private let changeHandler = Mutex<(@Sendable (_ source: String, _ status: MonitorStatus) -> Void)?>(nil)

    public init(monitor: any RoomMonitor, sources: [String], sink: String?, latency: Double) {
        self.monitor = monitor
        self.sources = sources
        self.sink = sink
        self.latency = latency
        monitor.observe { [weak self] source, heard in self?.loopbackChanged(source: source, heard: heard) }
    }

    /// The singer's switch; nil when the singer has no microphone.
    public func status(singer: Int) -> MonitorStatus? {
        guard sources.indices.contains(singer) else { return nil }
        let source = sources[singer]
        return switches.withLock { $0.on.contains(source) ? ($0.waiting.contains(source) ? .waiting : .heard) : .off }
    }

    /// The singers with `monitor` and `monitorWaiting` filled in for those who have a microphone.
    public func annotated(_ singers: [SingerPayload]) -> [SingerPayload] {
        singers.map { singer in
            var singer = singer
            let status = status(singer: singer.singer)
            singer.monitor = status.map { $0 != .off }
            singer.monitorWaiting = status.map { $0 == .waiting }
            return singer
        }
    }

    /// Registers who hears about a switched-on source going `.waiting` or `.heard` by itself
    /// (not through `set`/`setAll`), e.g. the room publishing a fresh state. Called off the room's queue.
    public func observe(_ handler: @escaping @Sendable (_ source: String, _ status: MonitorStatus) -> Void) {
        changeHandler.withLock { $0 = handler }
    }

    /// From the monitor. A source may be reported lost before `apply` has recorded it as on
    /// (the device went away right after the load): `waiting` is kept regardless, and `apply`
    /// clears it when the source is switched off.
    private func loopbackChanged(source: String, heard: Bool) {
        let isOn = switches.withLock {
            if heard { $0.waiting.remove(source) } else { $0.waiting.insert(source) }
            return $0.on.contains(source)
        }
        guard isOn else { return }
        changeHandler.withLock { $0 }?(source, heard ? .heard : .waiting)
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
            _ = switches.withLock { $0.on.insert(source) }
        } else {
            monitor.disable(source: source)
            switches.withLock {
                $0.on.remove(source)
                $0.waiting.remove(source)
            }
        }
    }

    private var distinctSources: [String] {
        var seen = Set<String>()
        return sources.filter { seen.insert($0).inserted }
    }
}
