import AudioEngine
import Foundation
import PitchDetection
import Scoring
import Synchronization

/// The pitch worker thread of one microphone: capture ring → `LivePitchTracker` → the current
/// `LiveSingerRun`. It lives as long as the room (one ring reader for the whole session); runs
/// are swapped under a lock that the audio callbacks never touch. Everything it produces is
/// handed to `output` on this thread; pitch frames thinned to every `pitchStride`-th.
final class LiveSingerWorker: @unchecked Sendable {
    struct Output: Sendable {
        var samples: @Sendable (_ run: LiveSingerRun, _ samples: [PitchSample]) -> Void
        var lines: @Sendable (_ run: LiveSingerRun, _ lines: [LineResult]) -> Void
    }

    private let tracker: LivePitchTracker
    private let clock: PlaybackClock
    private let run = Mutex<LiveSingerRun?>(nil)
    private let output: Output
    private let running = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(true)
    private let pollInterval = 0.01
    private let pitchStride: Int
    /// Pitch frames seen so far (worker thread only), for the `pitchStride` thinning.
    private var frameCount = 0

    init(channel: CaptureChannel, clock: PlaybackClock, pitchStride: Int, output: Output) {
        self.pitchStride = max(pitchStride, 1)
        tracker = LivePitchTracker(channel: channel, clock: clock)
        self.clock = clock
        self.output = output
    }

    func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.store(false, ordering: .releasing)
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                step()
                Thread.sleep(forTimeInterval: pollInterval)
            }
            finished.store(true, ordering: .releasing)
        }
        thread.name = "karaoke-live-singer"
        thread.start()
    }

    func stop() {
        running.store(false, ordering: .releasing)
        while !finished.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// Installs `new` (or none) and returns the run it replaces, with its lines so far.
    func swap(_ new: LiveSingerRun?) -> LiveSingerRun? {
        run.withLock { current in
            let old = current
            current = new
            return old
        }
    }

    private func step() {
        let samples = tracker.poll()
        // Lines close only while the track plays: stopped, the clock still reads the old
        // position (e.g. the song's end) and would judge a fresh run's lines as silent.
        let now = clock.isRunning ? clock.mediaTimeNow() : nil
        let progress = run.withLock { current -> (LiveSingerRun, [LineResult])? in
            guard current != nil else { return nil }
            // A run starts once the clock is playing near its start: right after a stop the clock
            // still reads the old position, and its samples belong to no run.
            if !current!.armed, let now, abs(now - current!.startPosition) < 1 { current!.armed = true }
            guard current!.armed else { return nil }
            current!.session.feed(contentsOf: samples)
            let closed = now.map { current!.session.advance(to: $0) } ?? []
            return (current!, closed)
        }
        guard let (snapshot, closed) = progress else { return }
        var shown: [PitchSample] = []
        for sample in samples {
            frameCount &+= 1
            if frameCount % pitchStride == 0 { shown.append(sample) }
        }
        if !shown.isEmpty { output.samples(snapshot, shown) }
        if !closed.isEmpty { output.lines(snapshot, closed) }
    }
}
