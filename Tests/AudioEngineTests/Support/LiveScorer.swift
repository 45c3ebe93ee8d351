import AudioEngine
import Foundation
@testable import LiveScoring
import Scoring
import Synchronization

/// One singer scored live without a room: the pitch worker `serve` uses (`LiveSingerWorker`:
/// capture ring → `LivePitchTracker` → `ScoringSession`) running a single run from the start,
/// handing each line result to `onLine` as it closes. Test support, not compiled into the server;
/// the room uses `LiveRoomSession`, which adds seeks, settings, events and the store.
final class LiveScorer: @unchecked Sendable {
    private let worker: LiveSingerWorker
    private let initialRun: LiveSingerRun
    /// Lines closed so far (not the worker's run itself: holding a copy of it would make the
    /// worker copy the session's samples on every step).
    private let closed = ClosedLines()

    private final class ClosedLines: Sendable {
        let lines = Mutex<[LineResult]>([])
    }

    /// - Parameter backing: what the speakers were fed (`PlaybackEngine.renderedOutput`), to
    ///   suppress the backing bleeding into the microphone; nil = the microphone alone.
    init(session: ScoringSession, channel: CaptureChannel, clock: PlaybackClock, backing: RenderedOutputTap? = nil,
                onLine: @escaping @Sendable (LineResult) -> Void) {
        let run = LiveSingerRun(singer: 0, name: "", part: 0, session: session, recorder: nil,
                                fromStart: true, startPosition: 0)
        initialRun = run
        let closed = closed
        worker = LiveSingerWorker(channel: channel, clock: clock, backing: backing, pitchStride: 1, output: .init(
            samples: { _, _ in },
            lines: { _, lines in
                closed.lines.withLock { $0 += lines.map(\.result) }
                for line in lines { onLine(line.result) }
            },
            jumped: { _ in }))
    }

    /// Results of the lines closed so far.
    var result: PerformanceResult {
        var result = initialRun.session.result
        result.lines = closed.lines.withLock { $0 }
        return result
    }

    /// Starts scoring; lines are judged once the clock plays from the song's start.
    func start() {
        _ = worker.swap(initialRun)
        worker.start()
    }

    /// Stops the worker and judges whatever lines are left.
    func stop() -> PerformanceResult {
        worker.stop()
        guard var run = worker.swap(nil) else { return result }
        return run.session.finish()
    }
}
