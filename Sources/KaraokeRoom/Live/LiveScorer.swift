import AudioEngine
import Foundation
import PitchDetection
import Scoring
import Synchronization

/// The live scoring pipeline for one singer: capture ring → pitch worker thread
/// (`LivePitchTracker`) → `ScoringSession` → a line result each time a line (plus mic delay)
/// is over. Runs on its own thread, so a slow consumer never stalls audio.
public final class LiveScorer: @unchecked Sendable {
    private let session: Mutex<ScoringSession>
    private let clock: PlaybackClock
    private let tracker: LivePitchTracker
    private let onLine: @Sendable (LineResult) -> Void
    private let running = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(true)
    /// How often the worker wakes (the detector hop is 10 ms).
    public var pollInterval = 0.01

    public init(session: ScoringSession, channel: CaptureChannel, clock: PlaybackClock,
                detector: PitchDetectorConfiguration = .init(),
                onLine: @escaping @Sendable (LineResult) -> Void) {
        self.session = Mutex(session)
        self.clock = clock
        tracker = LivePitchTracker(channel: channel, clock: clock, configuration: detector)
        self.onLine = onLine
    }

    /// Results of the lines closed so far.
    public var result: PerformanceResult { session.withLock { $0.result } }

    public func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.store(false, ordering: .releasing)
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                step()
                Thread.sleep(forTimeInterval: pollInterval)
            }
            step()
            finished.store(true, ordering: .releasing)
        }
        thread.name = "karaoke-pitch-worker"
        thread.start()
    }

    /// Stops the worker (after one last pass) and judges whatever lines are left.
    public func stop() -> PerformanceResult {
        running.store(false, ordering: .releasing)
        while !finished.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
        return session.withLock { $0.finish() }
    }

    private func step() {
        let samples = tracker.poll()
        let now = tracker.judgeablePosition(at: clock.mediaTimeNow() ?? 0)
        let closed = session.withLock { s -> [LineResult] in
            s.feed(contentsOf: samples)
            return s.advance(to: now)
        }
        for line in closed { onLine(line) }
    }
}
