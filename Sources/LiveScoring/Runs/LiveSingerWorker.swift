import AudioEngine
import Foundation
import PitchDetection
import Scoring
import Synchronization

/// The pitch worker thread of one microphone: capture ring → `LivePitchTracker` → the current
/// `LiveSingerRun`. It lives as long as the room (one ring reader for the whole session); runs
/// are swapped under a lock that the audio callbacks never touch. Everything it produces is
/// handed to `output` on this thread; pitch frames thinned by `PitchThinning` (every `pitchStride`-th, and every change of voicing).
public final class LiveSingerWorker: @unchecked Sendable {
    public struct Output: Sendable {
        public var samples: @Sendable (_ run: LiveSingerRun, _ samples: [PitchSample]) -> Void
        public var lines: @Sendable (_ run: LiveSingerRun, _ lines: [ClosedLine]) -> Void
        /// The clock jumped (a seek or A–B loop the run did not start from): the run stops judging
        /// and the session should start a new one at `position`.
        public var jumped: @Sendable (_ position: Double) -> Void

        public init(samples: @escaping @Sendable (_ run: LiveSingerRun, _ samples: [PitchSample]) -> Void,
                    lines: @escaping @Sendable (_ run: LiveSingerRun, _ lines: [ClosedLine]) -> Void,
                    jumped: @escaping @Sendable (_ position: Double) -> Void) {
            self.samples = samples
            self.lines = lines
            self.jumped = jumped
        }
    }

    private let tracker: LivePitchTracker
    /// Woken by a producer that signals its writes (a phone seat); otherwise polled.
    private let arrival: SampleArrivalSignal
    private let clock: PlaybackClock
    private let run = Mutex<LiveSingerRun?>(nil)
    private let output: Output
    private let running = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(true)
    /// Longest wait between steps: a channel nobody signals (a PulseAudio mic) is read this often,
    /// and lines close on time while a microphone sends nothing.
    private let pollInterval: Double
    /// Which pitch frames are published (worker thread only).
    private var thinning: PitchThinning
    /// Told each fresh `LivePitchTracker.backingLag` measurement (a phone seat's timing watch).
    private let onBackingLag: (@Sendable (Double) -> Void)?
    private var backingLagReadings = 0

    public init(channel: CaptureChannel, clock: PlaybackClock, backing: RenderedOutputTap?, pitchStride: Int, output: Output,
         maximumLag: Double = 0.25, referenceShift: (@Sendable () -> Double)? = nil, pollInterval: Double = 0.01,
         onBackingLag: (@Sendable (Double) -> Void)? = nil) {
        thinning = PitchThinning(stride: pitchStride)
        self.onBackingLag = onBackingLag
        arrival = channel.arrival
        self.pollInterval = pollInterval
        tracker = LivePitchTracker(channel: channel, clock: clock, backing: backing)
        tracker.maximumLag = maximumLag
        tracker.referenceShift = referenceShift
        self.clock = clock
        self.output = output
    }

    public func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.store(false, ordering: .releasing)
        let thread = Thread { [self] in
            ThreadPriority.lowerCurrentThread(to: ThreadPriority.analysis)
            while running.load(ordering: .acquiring) {
                step()
                // Catching up after a stall: straight on to the next slice of waiting audio.
                // Otherwise until the next frame arrives (a phone), at most `pollInterval`.
                if !tracker.isBehind { arrival.wait(seconds: pollInterval) }
            }
            finished.store(true, ordering: .releasing)
        }
        thread.name = "karaoke-live-singer"
        thread.start()
    }

    public func stop() {
        running.store(false, ordering: .releasing)
        arrival.signal()
        while !finished.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// Installs `new` (or none) and returns the run it replaces, with its lines so far.
    public func swap(_ new: LiveSingerRun?) -> LiveSingerRun? {
        run.withLock { current in
            let old = current
            current = new
            return old
        }
    }

    /// Backwards by more than 0.5 s, or forwards by more than the fastest tempo (1.5×) plays
    /// in the elapsed wall time plus 0.5 s.
    static func isJump(from last: Double, to now: Double, wallSeconds: Double) -> Bool {
        now < last - 0.5 || now > last + 1.5 * max(wallSeconds, 0) + 0.5
    }

    private enum Outcome {
        case idle
        case jumped(to: Double)
        case progress(LiveSingerRun, [ClosedLine])
    }

    private func step() {
        let samples = tracker.poll()
        if tracker.backingLagReadings != backingLagReadings, let lag = tracker.backingLag {
            backingLagReadings = tracker.backingLagReadings
            onBackingLag?(lag)
        }
        // Lines close only while the track plays: stopped, the clock still reads the old
        // position (e.g. the song's end) and would judge a fresh run's lines as silent.
        let now = clock.isRunning ? clock.mediaTimeNow() : nil
        let judgeable = now.map { tracker.judgeablePosition(at: $0) }
        let wall = ProcessInfo.processInfo.systemUptime
        let outcome = run.withLock { current -> Outcome in
            guard var r = current else { return .idle }
            current = nil  // keep `r` unique: mutating a shared copy would copy the session's samples
            defer { current = r }
            // A run starts once the clock is playing near its start: right after a stop the clock
            // still reads the old position, and its samples belong to no run.
            if !r.armed, let now, abs(now - r.startPosition) < 1 { r.armed = true }
            guard r.armed else { return .idle }
            r.followTiming()
            guard let now else {
                r.session.feed(contentsOf: samples)
                return .progress(r, [])
            }
            if let last = r.lastSeen, Self.isJump(from: last, to: now, wallSeconds: wall - r.lastSeenWall) {
                r.armed = false
                r.startPosition = .nan  // never re-arms; the session replaces the run
                return .jumped(to: now)
            }
            r.lastSeen = now
            r.lastSeenWall = wall
            r.session.feed(contentsOf: samples)
            // Advance first: the snapshot handed on must hold the lines it reports, or the
            // running `total` sent after a `lineScore` would leave that very line out.
            let closed = r.session.advance(to: judgeable ?? now)
            let delay = r.session.configuration.micDelayMedia
            let heardThrough = tracker.analysedThrough
            return .progress(r, closed.map { result in
                let judgedEnd = r.session.reference.lines.first { $0.index == result.lineIndex }?.judgedEnd ?? result.end
                return ClosedLine(result: result, heard: ClosedLine.wasHeard(judgedEnd: judgedEnd, micDelay: delay,
                                                                            analysedThrough: heardThrough))
            })
        }
        switch outcome {
        case .idle:
            return
        case .jumped(let position):
            output.jumped(position)
        case .progress(let snapshot, let closed):
            let shown = samples.filter { thinning.keeps($0) }
            if !shown.isEmpty { output.samples(snapshot, shown) }
            if !closed.isEmpty { output.lines(snapshot, closed) }
        }
    }
}
