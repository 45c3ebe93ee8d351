import Foundation

/// "Hear yourself": routes a microphone source to a sink through PulseAudio's
/// `module-loopback` (the server does the work; no audio passes through this process).
/// The loopback is mono (`channels=1`): a stereo source carrying two singers (split mode)
/// is mixed down, so each singer is heard on every speaker, not only on one side.
/// Loopbacks outlive this process's connection: `disable` (or releasing the monitor) unloads them.
public final class MicMonitor: @unchecked Sendable {
    private let pulse: PulseContext
    private var modules: [String: UInt32] = [:]
    private let lock = NSLock()

    public init(server: String? = nil) throws {
        pulse = try PulseContext(name: "karaoke-monitor", server: server)
        try pulse.connect()
    }

    deinit {
        for index in modules.values { pulse.unloadModule(index) }
        pulse.close()
    }

    public func isEnabled(source: String) -> Bool { lock.withLock { modules[source] != nil } }

    /// Starts monitoring `source` on `sink` (nil = default sink) with about `latency` seconds delay.
    public func enable(source: String, sink: String? = nil, latency: Double = 0.02) throws {
        for name in [source, sink].compactMap({ $0 }) where name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == "=" || $0 == "\"" }) {
            throw PulseError("monitor", message: "invalid device name '\(name)'")
        }
        try lock.withLock {
            guard modules[source] == nil else { return }
            var args = "source=\(source) latency_msec=\(Int((latency * 1000).rounded())) channels=1 source_dont_move=true"
            if let sink { args += " sink=\(sink) sink_dont_move=true" }
            modules[source] = try pulse.loadModule("module-loopback", arguments: args)
        }
    }

    public func disable(source: String) {
        lock.withLock {
            if let index = modules.removeValue(forKey: source) { pulse.unloadModule(index) }
        }
    }
}
