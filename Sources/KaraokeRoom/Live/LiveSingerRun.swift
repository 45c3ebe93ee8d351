import Foundation
import Scoring
import ScoreStore
import Synchronization

/// One singer's current scoring run: a fresh `ScoringSession` from a start position, who sings
/// which part, and where its lines are stored. A seek, loop jump or settings change ends the run
/// and starts a new one (see docs/live.md).
struct LiveSingerRun: Sendable {
    var singer: Int
    var name: String
    var part: Int
    var session: ScoringSession
    var recorder: LiveRunRecorder?
    /// False for a run that starts after the song's first line (a seek): a practice run that
    /// can never become a complete performance.
    var fromStart: Bool
    /// Media position the run starts from.
    var startPosition: Double
    /// Set by the worker once the clock plays near `startPosition`; until then nothing is judged.
    var armed = false
    /// Clock reading (media, wall) at the worker's last step, to notice jumps.
    var lastSeen: Double?
    var lastSeenWall = 0.0
}

/// Stores one run in the score store line by line (so a crash loses at most one line); the
/// performance row is created on the first line, so an aborted intro leaves nothing behind.
/// Calls return at once: the writes run one after another, in call order, off the caller's thread
/// (a slow or locked database never holds up the pitch worker). A store error never stops
/// scoring; it is kept for the log.
final class LiveRunRecorder: @unchecked Sendable {
    private let store: ScoreStore
    private let start: PerformanceStart
    /// The last queued write; each new one waits for it.
    private let tail = Mutex<Task<Void, Never>?>(nil)
    // Touched only by the chained writes, which never overlap.
    private var id: Int64?
    private var failures: [ScoreStoreError] = []

    init(store: ScoreStore, start: PerformanceStart) {
        self.store = store
        self.start = start
    }

    func record(_ line: LineResult) {
        enqueue { [self] in
            do throws(ScoreStoreError) {
                let id = try await performanceId()
                try await store.record(line, performance: id)
            } catch { failures.append(error) }
        }
    }

    /// Marks the performance complete with its total; a run that is never finished stays
    /// "in progress" in the store (an incomplete performance, left off the leaderboard).
    func finish(total: Int) {
        enqueue { [self] in
            guard let id else { return }
            do throws(ScoreStoreError) { try await store.finish(id, total: total) } catch { failures.append(error) }
        }
    }

    /// Waits for every queued write; returns the store errors so far.
    func flush() async -> [ScoreStoreError] {
        await tail.withLock { $0 }?.value
        return failures
    }

    private func enqueue(_ write: @escaping @Sendable () async -> Void) {
        tail.withLock { tail in
            let previous = tail
            tail = Task {
                await previous?.value
                await write()
            }
        }
    }

    private func performanceId() async throws(ScoreStoreError) -> Int64 {
        if let id { return id }
        let new = try await store.begin(start)
        id = new
        return new
    }
}
