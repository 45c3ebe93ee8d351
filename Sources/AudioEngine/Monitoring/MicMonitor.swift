import Dispatch
import Foundation

/// "Hear yourself": routes a microphone source to a sink through PulseAudio's
/// `module-loopback` (the server does the work; no audio passes through this process).
/// The loopback is mono (`channels=1`): a stereo source carrying two singers (split mode)
/// is mixed down, so each singer is heard on every speaker, not only on one side.
/// Loopbacks outlive this process's connection: `disable` (or releasing the monitor) unloads them.
///
/// An enabled source stays enabled until `disable`, whatever happens to the devices. When its
/// source or sink disappears, PulseAudio unloads the loopback by itself; the monitor sees the
/// module go (server events), reports the source as not heard, and loads it again when a sink
/// or source appears or the defaults change. When the server goes away every loopback goes
/// with it: the monitor reconnects every 0.2 s and loads them all again once it is back.
public final class MicMonitor: @unchecked Sendable {
    /// One enabled source: its `module-loopback` arguments, and the module while it is loaded.
    private struct Loopback {
        let arguments: String
        var module: UInt32?
    }

    /// How long to wait before retrying: a reconnect, or a reload after device events (which
    /// come in bursts: a new null sink brings a sink and its monitor source).
    private static let retryDelay = 0.2

    private let pulse: PulseContext
    /// Every sound-server call and every field below run on this queue (or in deinit), so
    /// server events and reconnects are ordered with `enable` and `disable`.
    private let queue = DispatchQueue(label: "karaoke.mic-monitor")
    private var loopbacks: [String: Loopback] = [:]
    private var resyncScheduled = false
    private var observer: (@Sendable (_ source: String, _ heard: Bool) -> Void)?

    public init(server: String? = nil) throws {
        pulse = try PulseContext(name: "karaoke-monitor", server: server)
        try pulse.connect()
        // Both handlers run on the mainloop thread: hand over to the queue, never hold `self` there.
        let queue = self.queue
        pulse.setEventHandler { [weak self] event in queue.async { [weak self] in self?.handle(event) } }
        pulse.setLostHandler { [weak self] in queue.async { [weak self] in self?.serverLost() } }
    }

    deinit {
        pulse.setEventHandler(nil)
        pulse.setLostHandler(nil)
        for module in loopbacks.values.compactMap(\.module) { pulse.unloadModule(module) }
        pulse.close()
    }

    /// Whether `source` is enabled (heard, or waiting for its device). Not from the observer.
    public func isEnabled(source: String) -> Bool { queue.sync { loopbacks[source] != nil } }

    /// Registers who hears about loopbacks that come and go by themselves (not through
    /// `enable`/`disable`): `heard` false when an enabled source's device or the server went
    /// away, true when it is loaded again. Called on the monitor's queue, in order with
    /// `enable` and `disable`, so never for a source after `disable(source:)` has returned.
    public func observe(_ handler: @escaping @Sendable (_ source: String, _ heard: Bool) -> Void) {
        queue.sync { observer = handler }
    }

    /// Starts monitoring `source` on `sink` (nil = default sink) with about `latency` seconds
    /// delay. Throws, and keeps nothing, when the server refuses it now (no such device) or is
    /// not reachable; does nothing if `source` is already enabled.
    public func enable(source: String, sink: String? = nil, latency: Double = 0.02) throws {
        for name in [source, sink].compactMap({ $0 }) where name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == "=" || $0 == "\"" }) {
            throw PulseError("monitor", message: "invalid device name '\(name)'")
        }
        var arguments = "source=\(source) latency_msec=\(Int((latency * 1000).rounded())) channels=1 source_dont_move=true"
        if let sink { arguments += " sink=\(sink) sink_dont_move=true" }
        try queue.sync {
            guard loopbacks[source] == nil else { return }
            guard pulse.isReady else { throw PulseError("monitor", message: "not connected to the sound server") }
            let module = try pulse.loadModule("module-loopback", arguments: arguments)
            loopbacks[source] = Loopback(arguments: arguments, module: module)
        }
    }

    public func disable(source: String) {
        queue.sync {
            if let module = loopbacks.removeValue(forKey: source)?.module { pulse.unloadModule(module) }
        }
    }

    // MARK: following the server (on `queue`)

    private func handle(_ event: PulseServerEvent) {
        switch event {
        case .moduleRemoved(let index):
            guard let source = loopbacks.first(where: { $0.value.module == index })?.key else { return }
            loopbacks[source]?.module = nil
            observer?(source, false)
            // A default device may have moved elsewhere already (no later event would say so).
            scheduleResync()
        case .deviceAdded, .serverChanged:
            if loopbacks.values.contains(where: { $0.module == nil }) { scheduleResync() }
        }
    }

    /// The connection failed: the server is gone, and its modules with it.
    private func serverLost() {
        for source in loopbacks.keys.sorted() where loopbacks[source]?.module != nil {
            loopbacks[source]?.module = nil
            observer?(source, false)
        }
        scheduleResync()
    }

    private func scheduleResync() {
        guard !resyncScheduled else { return }
        resyncScheduled = true
        queue.asyncAfter(deadline: .now() + Self.retryDelay) { [weak self] in self?.resync() }
    }

    /// Reconnects if the server went away (retrying until it is back), then reloads every
    /// enabled loopback that is not loaded; one whose device is still missing waits for the
    /// next server event.
    private func resync() {
        resyncScheduled = false
        if !pulse.isReady {
            do { try pulse.connect() } catch {
                scheduleResync()
                return
            }
        }
        for source in loopbacks.keys.sorted() {
            guard let loopback = loopbacks[source], loopback.module == nil,
                  let module = try? pulse.loadModule("module-loopback", arguments: loopback.arguments) else { continue }
            loopbacks[source]?.module = module
            observer?(source, true)
        }
    }
}
