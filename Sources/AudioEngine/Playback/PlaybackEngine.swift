import CPulse
import Foundation
import Synchronization

/// Plays one backing track through PulseAudio with live key and tempo change, A–B loop and an
/// exact position (the media time being heard, from PulseAudio's timing of frames played).
///
/// Control methods return at once and may be called from any thread; the audio thread picks
/// them up at its next write callback (≤ one buffer). Method names match the room's
/// `RoomPlayer` protocol so a small adapter conforms it.
public final class PlaybackEngine: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Sink name; `nil` follows the server's default sink.
        public var device: String?
        /// Target buffer between us and the sink (PulseAudio `tlength`): how long the playback
        /// thread may be held off before the speakers go silent. 100 ms, not 40: a thread without
        /// real-time rights beside busy work ran a 40 ms buffer dry at every live key change
        /// (docs/audio-engine.md). The clock maps what is heard exactly, so only control calls
        /// (pause, seek, key) are heard that much later.
        public var bufferDuration: Double = 0.1
        /// How often the callback is asked for more (PulseAudio `minreq`).
        public var requestDuration: Double = 0.01
        public var clientName = "karaoke"
        /// PulseAudio server address; `nil` uses `PULSE_SERVER` or the default.
        public var server: String?
        public init(device: String? = nil) { self.device = device }
    }

    public static let keyRange = -24...24
    public static let tempoRange = 0.5...1.5

    public let configuration: Configuration
    public let clock = PlaybackClock()
    /// Device events (lost, restored); called on a background thread.
    public var onDeviceEvent: (@Sendable (DeviceEvent) -> Void)? {
        get { handlers.withLock { $0 } }
        set { handlers.withLock { $0 = newValue } }
    }

    let pulse: PulseContext
    let transport = Transport()
    /// The output rate (the sink's rate at first connection; PulseAudio converts if it changes).
    public let sampleRate: Double
    private let renderer: PlaybackRenderer
    /// What the speakers were fed, by output frame (the clock maps output frames to host time):
    /// the live bleed suppressor's reference.
    public var renderedOutput: RenderedOutputTap { renderer.tap }
    private let handlers = Mutex<(@Sendable (DeviceEvent) -> Void)?>(nil)
    /// Guarded by the mainloop lock.
    private var stream: OpaquePointer?
    private var streamBase: Int64 = 0
    private var closing = false
    private let recovering = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// `ThreadPriority.Outcome` of the playback thread, set at a stream's first write.
    private let priority = Atomic<Int>(ThreadPriority.Outcome.unknown.rawValue)
    /// Mainloop thread only: the current stream's thread has been raised.
    private var priorityAsked = false
    /// Times the stream ran dry and the sink played silence (PulseAudio's underflow).
    private let underflows = Atomic<Int>(0)

    /// Connects to PulseAudio and opens the output stream (playing silence until a track plays).
    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        pulse = try PulseContext(name: configuration.clientName + "-playback", server: configuration.server)
        try pulse.connect()
        sampleRate = try pulse.sinkSpec(configuration.device).rate
        renderer = PlaybackRenderer(sampleRate: sampleRate, clock: clock, transport: transport)
        pulse.setLostHandler { [weak self] in self?.connectionLost(serverGone: true) }
        try openStream()
    }

    deinit { close() }

    // MARK: RoomPlayer surface

    /// Decodes the whole track (off the audio thread), resamples it to the output rate and
    /// swaps it in, stopped at 0. `nil` plays silence for `duration` seconds (the clock runs).
    /// Takes as long as the decode; the room uses `prepareTrack` + `load(track:)` instead.
    public func load(backingTrack path: String?, duration: Double) throws {
        load(track: try prepareTrack(backingTrack: path, duration: duration))
    }

    /// The slow half of `load(backingTrack:)`: decodes and resamples the track to the output
    /// rate without touching what plays. Safe on any thread, while the engine plays; swap the
    /// result in with `load(track:)`. Gives up with `PlaybackError.cancelled` once `isCancelled`
    /// says so (it is asked while resampling).
    public func prepareTrack(backingTrack path: String?, duration: Double,
                             isCancelled: () -> Bool = { false }) throws -> TrackSource {
        try TrackSource.prepare(backingTrack: path, duration: duration, sampleRate: sampleRate, isCancelled: isCancelled).track
    }

    /// Swaps in an already decoded track (e.g. a generated test signal), stopped at 0. Cheap:
    /// the swap happens under the mainloop lock, which the write callback holds while it
    /// renders, so the audio thread never sees a half-swapped track.
    public func load(track source: TrackSource) {
        precondition(source.sampleRate == sampleRate, "track must be at the output rate \(sampleRate)")
        transport.request(.stopped)
        var old: TrackSource?
        pulse.withLock {
            old = renderer.track
            renderer.track = source
            renderer.trackChanged()
        }
        // The previous track is released here, on the caller's thread, not the audio thread.
        old = nil
        _ = old
    }

    public func play() { transport.request(.playing) }
    public func pause() { transport.request(.paused) }
    /// Pauses and returns to the start.
    public func stop() {
        transport.request(.stopped)
        transport.requestSeek(to: 0)
    }
    public func seek(to mediaSeconds: Double) { transport.requestSeek(to: mediaSeconds) }
    /// Key change in semitones, clamped to ±24.
    public func setKey(semitones: Int) {
        transport.key.store(min(max(semitones, Self.keyRange.lowerBound), Self.keyRange.upperBound), ordering: .releasing)
    }
    /// Tempo factor (1.25 = 25 % faster), clamped to 0.5…1.5.
    public func setTempo(_ ratio: Double) {
        guard ratio.isFinite else { return }
        transport.tempo = min(max(ratio, Self.tempoRange.lowerBound), Self.tempoRange.upperBound)
    }
    /// A–B loop in media seconds; `nil` turns it off.
    public func setLoop(_ range: ClosedRange<Double>?) { transport.setLoop(range) }
    /// Centre-channel cancellation (`VocalReducer`) of the track before key and tempo change;
    /// while playing, the switch is a ≈ 11 ms dip like a key change.
    public func setVocalReduction(_ on: Bool) { transport.vocalReduction.store(on, ordering: .releasing) }
    public var vocalReduction: Bool { transport.vocalReduction.load(ordering: .acquiring) }

    /// The media time being heard now (seconds).
    public var position: Double {
        // While no stream runs, a seek cannot be heard yet: report where playback will resume.
        if !clock.isRunning,
           transport.seekGeneration.load(ordering: .acquiring) != transport.appliedSeekGeneration.load(ordering: .acquiring) {
            return Double(bitPattern: transport.seekTargetBits.load(ordering: .acquiring))
        }
        return clock.mediaTimeNow() ?? 0
    }

    /// True while the listener hears the song: asked to play, or stopped by the track's end
    /// that the speakers have not played yet (it is rendered a stream buffer ahead).
    public var isPlaying: Bool {
        if transport.requestedState == .playing { return true }
        guard let end = transport.trackEnd, clock.isRunning else { return false }
        return position < end - 0.0005
    }
    public var state: TransportState { transport.requestedState }
    public var key: Int { transport.key.load(ordering: .acquiring) }
    public var tempo: Double { transport.tempo }
    public var loop: ClosedRange<Double>? { transport.loop().range }
    public var duration: Double { pulse.withLock { renderer.track?.duration ?? 0 } }

    /// What the playback thread's scheduling got (known once the stream has asked for audio).
    public var playbackThreadPriority: ThreadPriority.Outcome {
        ThreadPriority.Outcome(rawValue: priority.load(ordering: .acquiring)) ?? .unknown
    }

    /// How often the speakers went silent because the buffer ran dry (since the engine opened).
    public var underruns: Int { underflows.load(ordering: .acquiring) }

    /// Measured output latency: buffered in the stream plus the sink's own (PulseAudio timing).
    public var outputLatency: Double? {
        pulse.withLock { stream.flatMap(PulseContext.latencyLocked) }
    }

    /// Closes the stream and the connection; the engine cannot be used afterwards.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pulse.withLock {
            closing = true
            closeStreamLocked()
        }
        pulse.setLostHandler(nil)
        pulse.close()
    }

    // MARK: stream

    private func openStream() throws(PulseError) {
        pa_threaded_mainloop_lock(pulse.mainloop)
        defer { pa_threaded_mainloop_unlock(pulse.mainloop) }
        guard let ctx = pulse.context else { throw PulseError("playback", message: "not connected") }
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: 2)
        guard let s = pa_stream_new(ctx, "backing track", &spec, nil) else {
            throw PulseError("playback stream", code: pa_context_errno(ctx))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(s, { s, userdata in
            let me = Unmanaged<PlaybackEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.streamStateChanged(s!)
        }, me)
        pa_stream_set_write_callback(s, { s, nbytes, userdata in
            let me = Unmanaged<PlaybackEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.write(s!, bytes: nbytes)
        }, me)
        pa_stream_set_latency_update_callback(s, { s, userdata in
            let me = Unmanaged<PlaybackEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.publishTiming(s!)
        }, me)
        pa_stream_set_underflow_callback(s, { _, userdata in
            let me = Unmanaged<PlaybackEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.underflows.add(1, ordering: .releasing)
        }, me)
        priorityAsked = false
        let bytesPerSecond = sampleRate * 8
        var attr = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: UInt32(configuration.bufferDuration * bytesPerSecond) & ~7,
            prebuf: UInt32.max,
            minreq: UInt32(configuration.requestDuration * bytesPerSecond) & ~7,
            fragsize: UInt32.max)
        var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
        // A named device that disappears must fail the stream (→ pause + event), not move it.
        if configuration.device != nil { flags |= PA_STREAM_DONT_MOVE.rawValue }
        streamBase = renderer.outputFrame
        stream = s
        if pa_stream_connect_playback(s, configuration.device, &attr, pa_stream_flags_t(rawValue: flags), nil, nil) < 0 {
            let error = PulseError("connect playback", code: pa_context_errno(ctx))
            closeStreamLocked()
            throw error
        }
        do {
            try pulse.waitUntilReady(s, "connect playback to \(configuration.device ?? "default sink")")
        } catch {
            closeStreamLocked()
            throw error
        }
        clock.setRunning(true)
    }

    private func closeStreamLocked() {
        guard let s = stream else { return }
        stream = nil
        clock.setRunning(false)
        pa_stream_set_state_callback(s, nil, nil)
        pa_stream_set_write_callback(s, nil, nil)
        pa_stream_set_latency_update_callback(s, nil, nil)
        pa_stream_set_underflow_callback(s, nil, nil)
        if PA_STREAM_IS_GOOD(pa_stream_get_state(s)) != 0 { pa_stream_disconnect(s) }
        pa_stream_unref(s)
    }

    /// Audio thread: PulseAudio wants `bytes` more.
    private func write(_ s: OpaquePointer, bytes: Int) {
        if !priorityAsked {
            // The mainloop thread renders the room's music: ask once, on that thread, to run
            // ahead of phones, pages and analysis (a 40 ms buffer had run dry beside 8 phones at load 2.8).
            priorityAsked = true
            priority.store(ThreadPriority.raiseCurrentThreadForPlayback().rawValue, ordering: .releasing)
        }
        var remaining = bytes
        while remaining >= 8 {
            var data: UnsafeMutableRawPointer?
            var size = remaining
            guard pa_stream_begin_write(s, &data, &size) == 0, let data, size >= 8 else { break }
            let frames = min(size, remaining) / 8
            renderer.render(into: data.bindMemory(to: Float.self, capacity: frames * 2), frames: frames)
            pa_stream_write(s, data, frames * 8, nil, 0, PA_SEEK_RELATIVE)
            remaining -= frames * 8
        }
        requestTimingUpdate(s)
    }

    /// Frame count at the last timing request (mainloop thread only).
    private var lastTimingRequest: Int64 = -1_000_000

    /// PulseAudio's automatic timing updates slow down to one per 1.5 s, and its interpolation
    /// drifts by ~1 ms/s in between (measured: up to 16 ms). Asking every ~20 ms keeps the
    /// played-frame estimate within a millisecond or two.
    private func requestTimingUpdate(_ s: OpaquePointer) {
        let now = renderer.outputFrame
        guard now - lastTimingRequest >= Int64(sampleRate * 0.02) else { return }
        lastTimingRequest = now
        if let op = pa_stream_update_timing_info(s, nil, nil) { pa_operation_unref(op) }
    }

    /// Audio thread, on every timing reply: records which output frame the server played when.
    /// Uses PulseAudio's raw timing (server time stamp, read index, sink latency) rather than its
    /// interpolating smoother, which drifted by ~1 ms/s between updates here.
    private func publishTiming(_ s: OpaquePointer) {
        guard let info = pa_stream_get_timing_info(s)?.pointee, info.read_index_corrupt == 0 else { return }
        let host = HostClock.hostTime(fromRealtime: info.timestamp)
        let played = Double(streamBase) + Double(max(0, info.read_index)) / 8 - Double(info.sink_usec) * sampleRate / 1e6
        clock.publish(playedFrame: max(Double(streamBase), played), hostTime: host,
                      written: renderer.outputFrame, advancing: info.playing != 0)
    }

    private func streamStateChanged(_ s: OpaquePointer) {
        let state = pa_stream_get_state(s)
        pulse.signal()
        guard s == stream, !closing, state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED else { return }
        let serverGone = pulse.context.map { PA_CONTEXT_IS_GOOD(pa_context_get_state($0)) == 0 } ?? true
        connectionLost(serverGone: serverGone)
    }

    /// Mainloop thread (lock held): the stream or the server is gone. Pause where the listener
    /// was, then let a recovery thread report it and reconnect.
    private func connectionLost(serverGone: Bool) {
        guard !closing, !recovering.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let heard = clock.mediaTimeNow() ?? 0
        clock.setRunning(false)
        if transport.requestedState == .playing { transport.request(.paused) }
        renderer.halt(at: heard)
        let device = configuration.device
        let event: DeviceEvent = serverGone ? .serverLost : .outputLost(device: device)
        let thread = Thread { [weak self] in self?.recover(after: event) }
        thread.name = "karaoke-playback-recovery"
        thread.start()
    }

    /// Recovery thread: report, then retry until the stream is back.
    private func recover(after event: DeviceEvent) {
        onDeviceEvent?(event)
        while !closed.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: 0.2)
            if closed.load(ordering: .acquiring) { break }
            pulse.withLock { closeStreamLocked() }
            do {
                try pulse.connect()
                try openStream()
                recovering.store(false, ordering: .releasing)
                onDeviceEvent?(.outputRestored(device: configuration.device))
                return
            } catch {
                continue
            }
        }
        recovering.store(false, ordering: .releasing)
    }
}
