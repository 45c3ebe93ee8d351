import Foundation
import Scoring
import ScoreStore
import Synchronization

/// Stores one run in the score store line by line (so a crash loses at most one line).
///
/// A claimed seat's run (`claimed`: a phone seat someone took, a microphone someone named) is
/// stored from its first judged line, sung or not: a singer who stayed silent has a run of 0
/// points, finished `complete` (or `interrupted`) like any other. An unclaimed microphone (a
/// PulseAudio channel still called "Singer N": the second channel of a stereo mic nobody uses)
/// is stored only once something was sung into it: lines before the first one with any voice
/// in its notes are held back and written then, so an unused channel leaves no zero-point rows.
/// A song stopped before its first line was judged leaves nothing behind either way.
///
/// Writes go through the store's `ScoreWriteQueue`: calls return at once, writes run in call
/// order off the caller's thread, and a failing database keeps them in memory, retried and
/// reported, until it takes them. A line sung while the microphone was lost is stored marked
/// `micLost`, and the run is then finished `interrupted`, never `complete`.
public final class LiveRunRecorder: Sendable {
    private let queue: ScoreWriteQueue
    private let start: PerformanceStart
    /// Whether the run is stored even when nothing is sung (see the type's comment).
    public let claimed: Bool
    private struct State {
        var run: ScoreWriteQueue.Run?
        var heldBack: [(line: LineResult, micLost: Bool)] = []
        var micLost = false
    }
    private let state = Mutex(State())

    public convenience init(store: any ScoreStore, start: PerformanceStart, claimed: Bool = false) {
        self.init(queue: store.writeQueue, start: start, claimed: claimed)
    }

    init(queue: ScoreWriteQueue, start: PerformanceStart, claimed: Bool = false) {
        self.queue = queue
        self.start = start
        self.claimed = claimed
    }

    /// Whether a line carries the singer's voice: a beat credited, or voiced frames judged on a note.
    static func isSung(_ line: LineResult) -> Bool {
        line.score > 0 || line.notes.contains { $0.creditedBeats > 0 || $0.deviationCents != nil }
    }

    /// Whether any line of the run was sung while its microphone was lost.
    var wasInterrupted: Bool { state.withLock { $0.micLost } }

    public func record(_ line: LineResult, micLost: Bool = false) {
        state.withLock { state in
            state.micLost = state.micLost || micLost
            guard state.run != nil || claimed || Self.isSung(line) else {
                state.heldBack.append((line, micLost))
                return
            }
            // Queued under the lock so two workers' lines of one run keep their order.
            let run = state.run ?? queue.begin(start)
            state.run = run
            for held in state.heldBack { queue.record(held.line, run: run, micLost: held.micLost) }
            state.heldBack = []
            queue.record(line, run: run, micLost: micLost)
        }
    }

    /// Marks the performance finished with its total: `complete`, or `interrupted` when a line
    /// was sung without a microphone. A run that is never finished stays "in progress" in the
    /// store (left off the leaderboard). An unclaimed microphone nobody sang into has no row to finish.
    public func finish(total: Int) {
        state.withLock { state in
            guard let run = state.run else { return }
            queue.finish(run, total: total, status: state.micLost ? .interrupted : .complete)
        }
    }

    /// Waits (up to `timeout` seconds) until the queued writes are stored; true when they are.
    @discardableResult
    func flush(timeout: Double = 120) async -> Bool {
        await queue.flush(timeout: timeout)
    }
}
