import Synchronization

/// One point of the output-frame → media-time map: from `outputFrame` on, media time advances
/// by `rate` media seconds per output second (the tempo while playing, 0 while paused or stopped).
public struct ClockCheckpoint: Sendable, Equatable {
    public var outputFrame: Int64
    public var mediaTime: Double
    public var rate: Double
}

/// The playback clock: which media time is being heard now (or was heard at a host time).
///
/// Two inputs, both written only by the audio (PulseAudio mainloop) thread and read lock-free
/// from any thread:
/// - a history of checkpoints in *written* output frames (appended at every seek, pause, resume,
///   tempo change and loop jump; they survive all of them), and
/// - timing snapshots from PulseAudio: the output frame the server is playing right now
///   (`pa_stream_get_time`, i.e. frames the sink consumed minus its latency) at a host time.
/// The heard position is the played frame mapped back through the history — never a timer.
public final class PlaybackClock: @unchecked Sendable {
    public static let historyCapacity = 1024

    private let history: UnsafeMutablePointer<ClockCheckpoint>
    private let count = Atomic<Int>(0)

    /// Timing snapshots, newest last: where the server was at a host time. A history rather
    /// than the latest one, so a past host time (a microphone sample's) maps correctly even if
    /// the stream stalled (underrun) since then.
    public static let timingCapacity = 512
    private let timings: UnsafeMutablePointer<TimingSnapshot>
    private let timingCount = Atomic<Int>(0)
    private let sampleRateBits = Atomic<UInt64>(48_000.0.bitPattern)
    /// False while no stream is connected: the played frame then stands still.
    private let running = Atomic<Bool>(false)

    public struct TimingSnapshot: Sendable {
        public var played: Double
        public var hostTime: Double
        public var written: Int64
        public var advancing: Bool
    }

    public init() {
        history = .allocate(capacity: Self.historyCapacity)
        history.initialize(repeating: ClockCheckpoint(outputFrame: 0, mediaTime: 0, rate: 0), count: Self.historyCapacity)
        timings = .allocate(capacity: Self.timingCapacity)
        timings.initialize(repeating: TimingSnapshot(played: 0, hostTime: 0, written: 0, advancing: false), count: Self.timingCapacity)
    }

    deinit {
        history.deallocate()
        timings.deallocate()
    }

    // MARK: writer (audio thread)

    public func append(_ checkpoint: ClockCheckpoint) {
        let c = count.load(ordering: .relaxed)
        history[c % Self.historyCapacity] = checkpoint
        count.store(c + 1, ordering: .releasing)
    }

    public func setSampleRate(_ rate: Double) { sampleRateBits.store(rate.bitPattern, ordering: .releasing) }
    public var sampleRate: Double { Double(bitPattern: sampleRateBits.load(ordering: .acquiring)) }

    /// Publishes "the server plays output frame `playedFrame` at host time `hostTime`".
    public func publish(playedFrame: Double, hostTime: Double, written: Int64, advancing: Bool = true) {
        let c = timingCount.load(ordering: .relaxed)
        timings[c % Self.timingCapacity] = TimingSnapshot(played: playedFrame, hostTime: hostTime, written: written, advancing: advancing)
        timingCount.store(c + 1, ordering: .releasing)
    }

    public func setRunning(_ isRunning: Bool) { running.store(isRunning, ordering: .releasing) }
    public var isRunning: Bool { running.load(ordering: .acquiring) }

    // MARK: readers (any thread)

    /// The newest timing snapshot, if any.
    public var latestTiming: TimingSnapshot? {
        let c = timingCount.load(ordering: .acquiring)
        return c > 0 ? timings[(c - 1) % Self.timingCapacity] : nil
    }

    /// The output frame being heard at `hostTime`: from the snapshot just before it, advanced at
    /// the output rate, but never past the next snapshot (a stall) or what was written.
    public func playedFrame(atHostTime hostTime: Double) -> Double {
        let c = timingCount.load(ordering: .acquiring)
        guard c > 0 else { return 0 }
        let oldest = max(0, c - Self.timingCapacity + 8)
        var i = c - 1
        while i > oldest && timings[i % Self.timingCapacity].hostTime > hostTime { i -= 1 }
        let snap = timings[i % Self.timingCapacity]
        let newest = timings[(c - 1) % Self.timingCapacity]
        guard isRunning || i < c - 1, snap.advancing else { return snap.played }
        var frame = snap.played + (hostTime - snap.hostTime) * sampleRate
        if i < c - 1 { frame = min(frame, timings[(i + 1) % Self.timingCapacity].played) }
        frame = min(frame, Double(newest.written))
        return max(frame, i == oldest ? 0 : snap.played)
    }

    /// Maps an output frame back to media time through the checkpoint history.
    public func mediaTime(atOutputFrame frame: Double) -> Double? {
        let c = count.load(ordering: .acquiring)
        guard c > 0 else { return nil }
        let rate = sampleRate
        var i = c - 1
        var best: ClockCheckpoint?
        // Newest first: several checkpoints can share an output frame (a seek while stopped,
        // then play in the same callback); the one appended last is in force.
        while i >= 0 && c - i <= Self.historyCapacity - 1 {
            let cp = history[i % Self.historyCapacity]
            if Double(cp.outputFrame) <= frame { best = cp; break }
            i -= 1
        }
        // If the writer lapped us while reading, the entry may be torn: fall back to the newest.
        if count.load(ordering: .acquiring) - i >= Self.historyCapacity { best = nil }
        guard let cp = best ?? (i < 0 ? history[0] : nil) else { return nil }
        let elapsed = max(0, frame - Double(cp.outputFrame)) / rate
        return cp.mediaTime + elapsed * cp.rate
    }

    /// The checkpoint in force at an output frame (its `rate` is 0 while paused or stopped).
    public func checkpoint(atOutputFrame frame: Double) -> ClockCheckpoint? {
        let c = count.load(ordering: .acquiring)
        var i = c - 1
        while i >= 0 && c - i < Self.historyCapacity {
            let cp = history[i % Self.historyCapacity]
            if Double(cp.outputFrame) <= frame { return cp }
            i -= 1
        }
        return nil
    }

    /// Media time heard at `hostTime`, and whether the media was advancing (playing) then.
    public func media(atHostTime hostTime: Double) -> (time: Double, playing: Bool)? {
        let frame = playedFrame(atHostTime: hostTime)
        guard let time = mediaTime(atOutputFrame: frame) else { return nil }
        return (time, (checkpoint(atOutputFrame: frame)?.rate ?? 0) > 0)
    }

    /// Media time heard at a host time (e.g. a microphone sample's capture time).
    public func mediaTime(atHostTime hostTime: Double) -> Double? {
        mediaTime(atOutputFrame: playedFrame(atHostTime: hostTime))
    }

    /// Media time being heard right now.
    public func mediaTimeNow() -> Double? { mediaTime(atHostTime: HostClock.now()) }

    /// The newest checkpoint appended (what the audio thread is rendering now).
    public var latestCheckpoint: ClockCheckpoint? {
        let c = count.load(ordering: .acquiring)
        return c > 0 ? history[(c - 1) % Self.historyCapacity] : nil
    }
}
