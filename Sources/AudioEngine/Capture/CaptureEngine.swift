import CPulse
import Foundation
import Synchronization

/// Records one PulseAudio source into per-singer lock-free rings.
///
/// `.mono`: PulseAudio mixes the source down to one channel, one singer.
/// `.channelsAsSingers`: each channel of the source (e.g. a stereo interface with two mics)
/// is a separate singer. The record callback copies into the rings and stamps each block with
/// its capture time; it never blocks or allocates (a full ring drops and counts the overrun).
public final class CaptureEngine: @unchecked Sendable {
    public enum Layout: Sendable { case mono, channelsAsSingers }

    public struct Configuration: Sendable {
        /// Source name; `nil` = the server's default source.
        public var source: String?
        public var layout: Layout = .mono
        public var sampleRate: Double = 48_000
        /// PulseAudio `fragsize`: how much audio each read callback brings.
        public var fragmentDuration: Double = 0.005
        /// How far the consumer may fall behind before samples are dropped.
        public var ringSeconds: Double = 10
        public var clientName = "karaoke"
        /// PulseAudio server address; `nil` uses `PULSE_SERVER` or the default.
        public var server: String?
        public init(source: String? = nil, layout: Layout = .mono) {
            self.source = source
            self.layout = layout
        }
    }

    public let configuration: Configuration
    public let channels: [CaptureChannel]
    /// When the source was lost (gone, moved elsewhere by PulseAudio, suspended), for marking lines.
    public let losses = InputLossLog()
    public var onDeviceEvent: (@Sendable (DeviceEvent) -> Void)? {
        get { handlers.withLock { $0 } }
        set { handlers.withLock { $0 = newValue } }
    }

    private let pulse: PulseContext
    private let handlers = Mutex<(@Sendable (DeviceEvent) -> Void)?>(nil)
    private let streamChannels: Int
    /// Guarded by the mainloop lock.
    private var stream: OpaquePointer?
    private var closing = false
    /// Frames delivered so far (continued across reconnects); mainloop thread only.
    private var capturedFrames: Int64 = 0
    private var streamFrameBase: Int64 = 0
    private let scratch: UnsafeMutablePointer<Float>
    private static let scratchFrames = 4096
    private let recovering = Atomic<Bool>(false)
    private let movingHome = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// Device events leave the mainloop thread through this queue, in order.
    private let events = DispatchQueue(label: "karaoke.capture.events")
    /// The source the stream recorded from when it connected (mainloop lock): moved elsewhere is lost.
    private var homeSource: String?

    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        pulse = try PulseContext(name: configuration.clientName + "-capture", server: configuration.server)
        try pulse.connect()
        switch configuration.layout {
        case .mono: streamChannels = 1
        case .channelsAsSingers: streamChannels = try pulse.sourceSpec(configuration.source).channels
        }
        channels = (0..<streamChannels).map {
            CaptureChannel(index: $0, sampleRate: configuration.sampleRate, ringSeconds: configuration.ringSeconds)
        }
        scratch = .allocate(capacity: Self.scratchFrames)
        scratch.initialize(repeating: 0, count: Self.scratchFrames)
        pulse.setLostHandler { [weak self] in self?.lost() }
        try openStream()
    }

    deinit {
        close()
        scratch.deallocate()
    }

    /// Measured input latency: from the source capturing a sample to our callback reading it.
    public var inputLatency: Double? {
        pulse.withLock { stream.flatMap(PulseContext.latencyLocked) }
    }

    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pulse.withLock {
            closing = true
            closeStreamLocked()
        }
        pulse.setLostHandler(nil)
        pulse.close()
    }

    private func openStream() throws(PulseError) {
        pa_threaded_mainloop_lock(pulse.mainloop)
        defer { pa_threaded_mainloop_unlock(pulse.mainloop) }
        guard let ctx = pulse.context else { throw PulseError("capture", message: "not connected") }
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(configuration.sampleRate), channels: UInt8(streamChannels))
        var map = pa_channel_map()
        pa_channel_map_init_auto(&map, UInt32(streamChannels), PA_CHANNEL_MAP_DEFAULT)
        guard let s = pa_stream_new(ctx, "microphone", &spec, &map) else {
            throw PulseError("capture stream", code: pa_context_errno(ctx))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(s, { s, userdata in
            let me = Unmanaged<CaptureEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.streamStateChanged(s!)
        }, me)
        pa_stream_set_latency_update_callback(s, { s, userdata in
            let me = Unmanaged<CaptureEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.updateAnchor(s!)
        }, me)
        pa_stream_set_read_callback(s, { s, _, userdata in
            let me = Unmanaged<CaptureEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.readAvailable(s!)
        }, me)
        // The default source unplugged: PulseAudio moves the stream to another source and
        // says so only here (no state change). A suspended source delivers nothing either.
        pa_stream_set_moved_callback(s, { s, userdata in
            let me = Unmanaged<CaptureEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.streamMoved(s!)
        }, me)
        pa_stream_set_suspended_callback(s, { s, userdata in
            let me = Unmanaged<CaptureEngine>.fromOpaque(userdata!).takeUnretainedValue()
            me.streamSuspended(s!)
        }, me)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
                                  fragsize: UInt32(configuration.fragmentDuration * configuration.sampleRate) * UInt32(4 * streamChannels))
        var flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
        if configuration.source != nil { flags |= PA_STREAM_DONT_MOVE.rawValue }
        stream = s
        streamFrameBase = capturedFrames
        if pa_stream_connect_record(s, configuration.source, &attr, pa_stream_flags_t(rawValue: flags)) < 0 {
            let error = PulseError("connect record", code: pa_context_errno(ctx))
            closeStreamLocked()
            throw error
        }
        do {
            try pulse.waitUntilReady(s, "record from \(configuration.source ?? "default source")")
        } catch {
            closeStreamLocked()
            throw error
        }
        let connected = pa_stream_get_device_name(s).map { String(cString: $0) }
        if homeSource == nil { homeSource = configuration.source ?? connected }
    }

    private func closeStreamLocked() {
        guard let s = stream else { return }
        stream = nil
        pa_stream_set_state_callback(s, nil, nil)
        pa_stream_set_read_callback(s, nil, nil)
        pa_stream_set_latency_update_callback(s, nil, nil)
        pa_stream_set_moved_callback(s, nil, nil)
        pa_stream_set_suspended_callback(s, nil, nil)
        hasAnchor = false
        if PA_STREAM_IS_GOOD(pa_stream_get_state(s)) != 0 { pa_stream_disconnect(s) }
        pa_stream_unref(s)
    }

    /// Audio thread: moves everything readable into the rings.
    private func readAvailable(_ s: OpaquePointer) {
        let frameBytes = 4 * streamChannels
        while pa_stream_readable_size(s) > 0 {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(s, &data, &bytes) == 0, bytes > 0 else { break }
            let frames = bytes / frameBytes
            stamp(s, firstFrame: capturedFrames)
            if let data {
                deliver(data.assumingMemoryBound(to: Float.self), frames: frames)
            } else {
                deliverSilence(frames: frames)   // a hole: keep the frame count honest
            }
            pa_stream_drop(s)
            capturedFrames += Int64(frames)
        }
        // Keep PulseAudio's timing fresh (its automatic updates slow to one per 1.5 s).
        if capturedFrames - lastTimingRequest >= Int64(configuration.sampleRate * 0.02) {
            lastTimingRequest = capturedFrames
            if let op = pa_stream_update_timing_info(s, nil, nil) { pa_operation_unref(op) }
        }
    }

    private var lastTimingRequest: Int64 = -1_000_000

    /// Raw timing anchor: frame `anchorFrame` entered the source at `anchorHost` (mainloop thread).
    private var anchorFrame = 0.0
    private var anchorHost = 0.0
    private var hasAnchor = false

    /// On every timing reply: the server stamped the moment it had queued `write_index` bytes
    /// for us while `source_usec` more were still inside the source. A sink's monitor gets each
    /// block when the sink renders it, `sink_usec` before it is played; PulseAudio reports that
    /// as `sink_usec` on monitor streams (0 otherwise), so the stamp is the moment it is heard.
    private func updateAnchor(_ s: OpaquePointer) {
        guard let info = pa_stream_get_timing_info(s)?.pointee, info.write_index_corrupt == 0 else { return }
        anchorHost = HostClock.hostTime(fromRealtime: info.timestamp)
        anchorFrame = Double(streamFrameBase) + Double(max(0, info.write_index)) / Double(4 * streamChannels)
            + (Double(info.source_usec) - Double(info.sink_usec)) * configuration.sampleRate / 1e6
        hasAnchor = true
    }

    /// Stamps the block about to be written: numbered in each ring's own count (so samples a
    /// full ring dropped never shift the numbering), timed from the stream frame `firstFrame`.
    private func stamp(_ s: OpaquePointer, firstFrame: Int64) {
        guard hasAnchor else { return }
        let time = anchorHost + (Double(firstFrame) - anchorFrame) / configuration.sampleRate
        for channel in channels {
            channel.stamps.write(CaptureStamp(frame: Int64(channel.samples.totalWritten), hostTime: time))
        }
    }

    private func deliver(_ samples: UnsafePointer<Float>, frames: Int) {
        if streamChannels == 1 {
            let n = channels[0].samples.write(UnsafeBufferPointer(start: samples, count: frames))
            if n < frames { channels[0].countOverrun(frames - n) }
            return
        }
        var done = 0
        while done < frames {
            let n = min(frames - done, Self.scratchFrames)
            for channel in channels {
                let c = channel.index
                for i in 0..<n { scratch[i] = samples[(done + i) * streamChannels + c] }
                let w = channel.samples.write(UnsafeBufferPointer(start: scratch, count: n))
                if w < n { channel.countOverrun(n - w) }
            }
            done += n
        }
    }

    private func deliverSilence(frames: Int) {
        scratch.update(repeating: 0, count: Self.scratchFrames)
        var done = 0
        while done < frames {
            let n = min(frames - done, Self.scratchFrames)
            for channel in channels {
                let w = channel.samples.write(UnsafeBufferPointer(start: scratch, count: n))
                if w < n { channel.countOverrun(n - w) }
            }
            done += n
        }
    }

    private func streamStateChanged(_ s: OpaquePointer) {
        let state = pa_stream_get_state(s)
        pulse.signal()
        guard s == stream, !closing, state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED else { return }
        lost()
    }

    /// Mainloop thread: PulseAudio moved the stream (its source went away, or it came back).
    private func streamMoved(_ s: OpaquePointer) {
        guard s == stream, !closing else { return }
        let now = pa_stream_get_device_name(s).map { String(cString: $0) }
        if now == homeSource { markRestored() } else { markLost(); startMovingHome() }
    }

    /// A default-source stream PulseAudio moved elsewhere is not moved back when its source
    /// returns (unless module-switch-on-connect is loaded): ask for it every half second.
    private func startMovingHome() {
        guard !movingHome.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [weak self] in
            while let self, !self.closed.load(ordering: .acquiring), self.losses.isLost {
                self.pulse.withLock {
                    guard let s = self.stream, let ctx = self.pulse.context, let home = self.homeSource,
                          !self.recovering.load(ordering: .acquiring) else { return }
                    if let op = pa_context_move_source_output_by_name(ctx, pa_stream_get_index(s), home, nil, nil) {
                        pa_operation_unref(op)
                    }
                }
                Thread.sleep(forTimeInterval: 0.5)
            }
            self?.movingHome.store(false, ordering: .releasing)
        }
        thread.name = "karaoke-capture-home"
        thread.start()
    }

    /// Mainloop thread: the source was suspended (no audio reaches us) or resumed.
    private func streamSuspended(_ s: OpaquePointer) {
        guard s == stream, !closing else { return }
        if pa_stream_is_suspended(s) == 1 { markLost() } else { markRestored() }
    }

    private func markLost() {
        guard losses.markLost(at: HostClock.now()) else { return }
        emit(.inputLost(source: configuration.source))
    }

    private func markRestored() {
        guard losses.markRestored(at: HostClock.now()) else { return }
        emit(.inputRestored(source: configuration.source))
    }

    private func emit(_ event: DeviceEvent) {
        events.async { [weak self] in self?.onDeviceEvent?(event) }
    }

    /// Mainloop thread: the source or the server is gone; report and reconnect in the background.
    private func lost() {
        guard !closing, !recovering.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [weak self] in self?.recover() }
        thread.name = "karaoke-capture-recovery"
        thread.start()
    }

    private func recover() {
        markLost()
        while !closed.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: 0.2)
            if closed.load(ordering: .acquiring) { break }
            pulse.withLock { closeStreamLocked() }
            do {
                try pulse.connect()
                try openStream()
                recovering.store(false, ordering: .releasing)
                // Back on the source it had (a default-source stream may land elsewhere: still lost).
                let onHome = pulse.withLock { stream.flatMap(pa_stream_get_device_name).map { String(cString: $0) } == homeSource }
                if onHome { markRestored() }
                return
            } catch {
                continue
            }
        }
        recovering.store(false, ordering: .releasing)
    }
}
