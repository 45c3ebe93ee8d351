import CPulse
import Foundation

/// A PulseAudio connection: one `pa_threaded_mainloop` (its thread runs every stream callback)
/// and one `pa_context`. A context that failed (server gone) cannot be revived, so `connect()`
/// replaces it with a fresh one; the mainloop thread keeps running across reconnects.
///
/// Locking: every `pa_*` call from another thread must run inside `withLock`; callbacks already
/// hold the lock. The `context` pointer is only read or replaced under the lock.
public final class PulseContext: @unchecked Sendable {
    public let name: String
    /// Server address (`unix:/path/native`); `nil` uses `PULSE_SERVER` or the default.
    public let server: String?
    let mainloop: OpaquePointer
    /// Guarded by the mainloop lock.
    private(set) var context: OpaquePointer?
    /// Called on the mainloop thread (lock held) when a ready context fails or terminates.
    private var onLost: (@Sendable () -> Void)?
    /// Called on the mainloop thread (lock held) for each server event; re-subscribed on every
    /// (re)connect, since a new context starts without subscriptions.
    private var onEvent: (@Sendable (PulseServerEvent) -> Void)?
    private var wasReady = false

    public init(name: String, server: String? = nil) throws(PulseError) {
        self.name = name
        self.server = server
        guard let ml = pa_threaded_mainloop_new() else { throw PulseError("mainloop", message: "cannot create") }
        mainloop = ml
        guard pa_threaded_mainloop_start(ml) == 0 else {
            pa_threaded_mainloop_free(ml)
            throw PulseError("mainloop", message: "cannot start its thread")
        }
    }

    deinit {
        close()
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    /// Runs `body` with the mainloop lock held (never call from a PulseAudio callback).
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Inside `withLock`: sleeps until a callback calls `signal()`.
    func wait() { pa_threaded_mainloop_wait(mainloop) }
    /// From a callback: wakes `wait()`ers.
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Registers the handler for a lost connection (runs on the mainloop thread).
    public func setLostHandler(_ handler: (@Sendable () -> Void)?) { withLock { onLost = handler } }

    /// Registers the handler for server events (runs on the mainloop thread with the lock held,
    /// so it may only hand the event on); it stays subscribed across reconnects.
    func setEventHandler(_ handler: (@Sendable (PulseServerEvent) -> Void)?) {
        withLock {
            onEvent = handler
            if let ctx = context, pa_context_get_state(ctx) == PA_CONTEXT_READY { subscribeLocked(ctx) }
        }
    }

    public var isReady: Bool {
        withLock { context.map { pa_context_get_state($0) == PA_CONTEXT_READY } ?? false }
    }

    /// (Re)connects to the server named by `PULSE_SERVER` (or the default); blocks until the
    /// context is ready or has failed. Safe to call again after the server went away.
    public func connect() throws(PulseError) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        if let ctx = context, pa_context_get_state(ctx) == PA_CONTEXT_READY { return }
        dropContextLocked()
        guard let ctx = pa_context_new(pa_threaded_mainloop_get_api(mainloop), name) else {
            throw PulseError("context", message: "cannot create")
        }
        context = ctx
        wasReady = false
        pa_context_set_state_callback(ctx, { ctx, userdata in
            guard let ctx, let userdata else { return }
            let me = Unmanaged<PulseContext>.fromOpaque(userdata).takeUnretainedValue()
            me.contextStateChanged(ctx)
        }, Unmanaged.passUnretained(self).toOpaque())
        if pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            let error = PulseError("connect", code: pa_context_errno(ctx))
            dropContextLocked()
            throw error
        }
        while true {
            let state = pa_context_get_state(ctx)
            if state == PA_CONTEXT_READY {
                wasReady = true
                subscribeLocked(ctx)
                return
            }
            if PA_CONTEXT_IS_GOOD(state) == 0 {
                let error = PulseError("connect", code: pa_context_errno(ctx))
                dropContextLocked()
                throw error
            }
            wait()
        }
    }

    private func contextStateChanged(_ ctx: OpaquePointer) {
        let state = pa_context_get_state(ctx)
        if state == PA_CONTEXT_READY { wasReady = true }
        if PA_CONTEXT_IS_GOOD(state) == 0 && wasReady && ctx == context {
            wasReady = false
            onLost?()
        }
        signal()
    }

    /// Asks a ready context for the server events `onEvent` wants (nothing without a handler).
    private func subscribeLocked(_ ctx: OpaquePointer) {
        guard onEvent != nil else { return }
        pa_context_set_subscribe_callback(ctx, { _, type, index, userdata in
            guard let userdata, let event = PulseServerEvent(type, index: index) else { return }
            Unmanaged<PulseContext>.fromOpaque(userdata).takeUnretainedValue().onEvent?(event)
        }, Unmanaged.passUnretained(self).toOpaque())
        if let op = pa_context_subscribe(ctx, PulseServerEvent.mask, nil, nil) { pa_operation_unref(op) }
    }

    private func dropContextLocked() {
        guard let ctx = context else { return }
        pa_context_set_state_callback(ctx, nil, nil)
        pa_context_set_subscribe_callback(ctx, nil, nil)
        pa_context_disconnect(ctx)
        pa_context_unref(ctx)
        context = nil
    }

    /// Disconnects (streams must be closed first).
    public func close() { withLock { dropContextLocked() } }

    /// A stream's latency in seconds from PulseAudio's timing info (nil before it is known).
    /// Call inside `withLock`.
    static func latencyLocked(_ stream: OpaquePointer) -> Double? {
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(stream, &usec, &negative) == 0 else { return nil }
        return negative != 0 ? 0 : Double(usec) / 1e6
    }

    /// Waits (lock held) until a connecting stream is ready; throws `what` with PulseAudio's
    /// error if it fails instead. The stream's state callback must call `signal()`.
    func waitUntilReady(_ stream: OpaquePointer, _ what: @autoclosure () -> String) throws(PulseError) {
        while true {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY { return }
            guard PA_STREAM_IS_GOOD(state) != 0 else {
                throw PulseError(what(), code: context.map { pa_context_errno($0) } ?? Int32(PA_ERR_CONNECTIONTERMINATED.rawValue))
            }
            wait()
        }
    }

    /// Runs an operation and waits for it (the callback must call `signal()` via the box).
    func waitFor(_ operation: OpaquePointer?) {
        guard let op = operation else { return }
        while pa_operation_get_state(op) == PA_OPERATION_RUNNING { wait() }
        pa_operation_unref(op)
    }

    // MARK: queries

    /// The sample rate and channel count of a sink (`nil` = the default sink).
    public func sinkSpec(_ sink: String?) throws(PulseError) -> (rate: Double, channels: Int) {
        try deviceSpec(kind: "sink", name: sink ?? "@DEFAULT_SINK@") { ctx, name, userdata in
            pa_context_get_sink_info_by_name(ctx, name, { _, info, eol, userdata in
                DeviceSpecBox.from(userdata).received(eol == 0 ? info?.pointee.sample_spec : nil)
            }, userdata)
        }
    }

    /// The sample rate and channel count of a source (`nil` = the default source).
    public func sourceSpec(_ source: String?) throws(PulseError) -> (rate: Double, channels: Int) {
        try deviceSpec(kind: "source", name: source ?? "@DEFAULT_SOURCE@") { ctx, name, userdata in
            pa_context_get_source_info_by_name(ctx, name, { _, info, eol, userdata in
                DeviceSpecBox.from(userdata).received(eol == 0 ? info?.pointee.sample_spec : nil)
            }, userdata)
        }
    }

    /// Runs one sink/source info query and waits for its answer.
    private func deviceSpec(
        kind: String, name: String,
        query: (OpaquePointer, String, UnsafeMutableRawPointer) -> OpaquePointer?
    ) throws(PulseError) -> (rate: Double, channels: Int) {
        let box = DeviceSpecBox(context: self)
        try withLockThrowing { () throws(PulseError) in
            guard let ctx = context else { throw PulseError("\(kind) info", message: "not connected") }
            waitFor(query(ctx, name, Unmanaged.passUnretained(box).toOpaque()))
        }
        box.context = nil
        guard let spec = box.spec else { throw PulseError("\(kind) info", message: "no \(kind) named '\(name)'") }
        return spec
    }

    /// Loads a server module (e.g. `module-loopback`); returns its index.
    public func loadModule(_ name: String, arguments: String) throws(PulseError) -> UInt32 {
        final class Box { var index = UInt32.max; var ctx: PulseContext? }
        let box = Box()
        box.ctx = self
        try withLockThrowing { () throws(PulseError) in
            guard let ctx = context else { throw PulseError("load module", message: "not connected") }
            let op = pa_context_load_module(ctx, name, arguments, { _, index, userdata in
                let box = Unmanaged<Box>.fromOpaque(userdata!).takeUnretainedValue()
                box.index = index
                box.ctx?.signal()
            }, Unmanaged.passUnretained(box).toOpaque())
            waitFor(op)
        }
        box.ctx = nil
        guard box.index != UInt32.max else {
            throw PulseError("load module", message: "\(name) \(arguments) was refused")
        }
        return box.index
    }

    /// Unloads a module loaded with `loadModule`.
    public func unloadModule(_ index: UInt32) {
        final class Box { var ctx: PulseContext? }
        let box = Box()
        box.ctx = self
        withLock {
            guard let ctx = context else { return }
            let op = pa_context_unload_module(ctx, index, { _, _, userdata in
                Unmanaged<Box>.fromOpaque(userdata!).takeUnretainedValue().ctx?.signal()
            }, Unmanaged.passUnretained(box).toOpaque())
            waitFor(op)
        }
        box.ctx = nil
    }

    private func withLockThrowing(_ body: () throws(PulseError) -> Void) throws(PulseError) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        try body()
    }
}

/// Carries a sink/source info answer out of PulseAudio's C callback.
private final class DeviceSpecBox {
    var spec: (rate: Double, channels: Int)?
    var context: PulseContext?

    init(context: PulseContext) { self.context = context }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> DeviceSpecBox {
        Unmanaged<DeviceSpecBox>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// Called once per entry and once at the end of the list (`nil`).
    func received(_ sampleSpec: pa_sample_spec?) {
        if let sampleSpec { spec = (Double(sampleSpec.rate), Int(sampleSpec.channels)) }
        context?.signal()
    }
}
