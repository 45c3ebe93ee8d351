@testable import AudioEngine
import CPulse
import Foundation

/// A synthetic singer that follows the music as a person does: its own PulseAudio playback
/// stream (into `mic_sink`, whose monitor is the `mic` source), which on every write request
/// sings the part of `voice` (indexed by media time) for the media time the backing will be at
/// when this block is heard. An underrun or a late start of either stream therefore never
/// shifts the voice against the backing; what is left is a constant path delay (this stream's
/// hand-over, the capture side), which a calibration through the same singer measures.
final class FollowingSinger: @unchecked Sendable {
    private let pulse: PulseContext
    private let clock: PlaybackClock
    private let voice: [Float]
    private let rate: Double
    /// Mainloop thread only.
    private var stream: OpaquePointer?
    private var nextIndex: Int?
    private var scratch = [Float](repeating: 0, count: 48_000)
    /// How far the clock's estimate may part from the voice before the voice jumps to it.
    private let realignSamples: Int
    private let writeAhead: Double
    private var keepsTimeline: Bool { writeAhead > 0.02 }
    /// Mainloop thread: the media time at the last write, and whether the room's clock stands still.
    private var lastMedia: Double?
    private var stalled = false
    /// How often the room's playback stood still (its clock not moving while playing), for a
    /// timeline-keeping stream (read after `close`). The bleed is silent meanwhile, as the speakers.
    private(set) var roomStalls = 0
    /// How often the voice jumped to the clock (mainloop thread; read after `close`). With a
    /// wide tolerance, more than the seeks mean the room's playback stalled (overloaded machine).
    private(set) var realigns = 0
    /// Jumps more than 0.5 s apart: a stall of the room's playback (its clock stands still while
    /// this stream goes on) re-aligns on every write until it plays again, but is one event.
    private(set) var realignEpisodes = 0
    private var lastRealign = -Double.infinity
    /// Each jump: the media time, how far (samples; positive: the voice was behind) and this stream's latency then.
    private(set) var realignShifts: [(media: Double, samples: Int, latency: Double)] = []

    /// `voice[i]` is the sample for media time `i / rate`.
    /// - Parameter realignTolerance: a singer re-finds the beat within a couple of milliseconds;
    ///   sound *from the speakers* (bleed) never jumps, so bleed uses a wide tolerance: the
    ///   clock estimate taken here at write time jitters by several milliseconds on a loaded
    ///   machine, and jumping with it shifted the simulated bleed against what the speakers
    ///   played, which no real room does (seen: 37–57 jumps in 20 s at load 20).
    /// - Parameter writeAhead: how much this stream keeps buffered. A singer keeps it short (it
    ///   re-finds the beat at once). Bleed writes far ahead with no pre-buffering: a mainloop
    ///   held up by the scheduler (at load 12, 129 jumps in 20 s with 20 ms) then neither runs
    ///   the stream dry nor, if it does, restarts it later (PulseAudio keeps reading through an
    ///   underrun without prebuf, so every sample keeps its place against the sink's clock).
    ///   Such a stream is also silent while the followed clock stands still during play (the
    ///   room's own stream ran dry, its speakers are silent), and then goes on at that clock.
    init(sink: String, voice: [Float], rate: Double, following clock: PlaybackClock,
         realignTolerance: Double = 0.002, writeAhead: Double = 0.02) throws {
        realignSamples = Int(realignTolerance * rate)
        self.writeAhead = writeAhead
        self.voice = voice
        self.rate = rate
        self.clock = clock
        pulse = try PulseContext(name: "karaoke-test-singer", server: nil)
        try pulse.connect()
        try pulse.withLock { try openStream(sink: sink) }
    }

    deinit { close() }

    func close() {
        pulse.withLock {
            guard let s = stream else { return }
            stream = nil
            pa_stream_set_write_callback(s, nil, nil)
            pa_stream_set_state_callback(s, nil, nil)
            pa_stream_disconnect(s)
            pa_stream_unref(s)
        }
        pulse.close()
    }

    private func openStream(sink: String) throws {
        guard let ctx = pulse.context else { throw PulseError("singer", message: "not connected") }
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(rate), channels: 1)
        guard let s = pa_stream_new(ctx, "synthetic singer", &spec, nil) else {
            throw PulseError("singer stream", code: pa_context_errno(ctx))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(s, { _, userdata in
            Unmanaged<FollowingSinger>.fromOpaque(userdata!).takeUnretainedValue().pulse.signal()
        }, me)
        pa_stream_set_write_callback(s, { s, nbytes, userdata in
            Unmanaged<FollowingSinger>.fromOpaque(userdata!).takeUnretainedValue().write(s!, bytes: nbytes)
        }, me)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32(writeAhead * rate) * 4,
                                  prebuf: keepsTimeline ? 0 : UInt32.max,
                                  minreq: UInt32(0.005 * rate) * 4, fragsize: UInt32.max)
        let flags = PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_DONT_MOVE.rawValue
        stream = s
        guard pa_stream_connect_playback(s, sink, &attr, pa_stream_flags_t(rawValue: flags), nil, nil) == 0 else {
            throw PulseError("singer connect", code: pa_context_errno(ctx))
        }
        try pulse.waitUntilReady(s, "singer connect")
    }

    /// Mainloop thread: sing the next `bytes`.
    private func write(_ s: OpaquePointer, bytes: Int) {
        let frames = min(bytes / 4, scratch.count)
        // When written now, this block is heard one stream latency from now; the backing will
        // then be that much further on (tempo 1 in these tests).
        let latency = PulseContext.latencyLocked(s) ?? 0.02
        let media = clock.media(atHostTime: HostClock.now())
        if keepsTimeline, let media, media.playing, let last = lastMedia, media.time <= last + 1e-6 {
            // The room's clock stands still while playing: its stream ran dry and its speakers
            // are silent, so the bleed is too, from what is being read now (the voice queued
            // ahead was for a time that is not coming yet). It goes on where it was once the room plays.
            if !stalled {
                stalled = true
                roomStalls += 1
                for k in 0..<frames { scratch[k] = 0 }
                scratch.withUnsafeBytes { _ = pa_stream_write(s, $0.baseAddress, frames * 4, nil, 0, PA_SEEK_RELATIVE_ON_READ) }
                nextIndex = nil
                return
            }
            for k in 0..<frames { scratch[k] = 0 }
            scratch.withUnsafeBytes { _ = pa_stream_write(s, $0.baseAddress, frames * 4, nil, 0, PA_SEEK_RELATIVE) }
            return
        }
        stalled = false
        lastMedia = media?.time
        if let (media, playing) = media, playing {
            let index = Int(((media + latency) * rate).rounded())
            // Keep the voice continuous; re-align only when the backing moved (a seek, an underrun).
            var start = nextIndex ?? index
            if abs(index - start) > realignSamples {
                let now = HostClock.now()
                if realignShifts.count < 1000 { realignShifts.append((media, index - start, latency)) }
                if now - lastRealign > 0.5 { realignEpisodes += 1 }
                lastRealign = now
                start = index
                realigns += 1
            }
            for k in 0..<frames {
                let i = start + k
                scratch[k] = i >= 0 && i < voice.count ? voice[i] : 0
            }
            nextIndex = start + frames
        } else {
            for k in 0..<frames { scratch[k] = 0 }
            nextIndex = nil
        }
        scratch.withUnsafeBytes { _ = pa_stream_write(s, $0.baseAddress, frames * 4, nil, 0, PA_SEEK_RELATIVE) }
    }
}
