import Foundation
import Scoring
import ScoreStore
import Synchronization

/// One singer's current scoring run: a fresh `ScoringSession` from a start position, who sings
/// which part, and where its lines are stored. A seek, loop jump or settings change ends the run
/// and starts a new one (see docs/live.md).
struct LiveSingerRun: Sendable {
    /// The song being sung (tags its events: they may reach the room after the next song was chosen).
    var songId = ""
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

/// Stores one run in the score store line by line (so a crash loses at most one line). The
/// performance row is created once the singer has sung: lines before the first one with any
/// voice in its notes are held back and written then, so a microphone nobody sang into (the
/// second channel of a stereo mic, a singer who left) leaves no zero-point performance on the
/// leaderboard or in the history, and an aborted intro leaves nothing behind.
/// Calls return at once: the writes run one after another, in call order, off the caller's thread
/// (a slow or locked database never holds up the pitch worker). A store error never stops
/// scoring; it is kept for the log.
final class LiveRunRecorder: @unchecked Sendable {
    private let store: ScoreStore
    private let start: PerformanceStart
    /// The last queued write (each new one waits for it), and the lines held back until the
    /// singer is heard.
    private let state = Mutex<(tail: Task<Void, Never>?, heldBack: [LineResult], heard: Bool)>((nil, [], false))
    // Touched only by the chained writes, which never overlap.
    private var id: Int64?
    private var failures: [ScoreStoreError] = []

    init(store: ScoreStore, start: PerformanceStart) {
        self.store = store
        self.start = start
    }

    /// Whether a line carries the singer's voice: a beat credited, or voiced frames judged on a note.
    static func isSung(_ line: LineResult) -> Bool {
        line.score > 0 || line.notes.contains { $0.creditedBeats > 0 || $0.deviationCents != nil }
    }

    func record(_ line: LineResult) {
        let lines: [LineResult] = state.withLock { state in
            guard state.heard || Self.isSung(line) else {
                state.heldBack.append(line)
                return []
            }
            state.heard = true
            defer { state.heldBack = [] }
            return state.heldBack + [line]
        }
        for line in lines {
            enqueue { [self] in
                do throws(ScoreStoreError) {
                    let id = try await performanceId()
                    try await store.record(line, performance: id)
                } catch { failures.append(error) }
            }
        }
    }

    /// Marks the performance complete with its total; a run that is never finished stays
    /// "in progress" in the store (an incomplete performance, left off the leaderboard). A run
    /// nobody sang in has no row to finish.
    func finish(total: Int) {
        enqueue { [self] in
            guard let id else { return }
            do throws(ScoreStoreError) { try await store.finish(id, total: total) } catch { failures.append(error) }
        }
    }

    /// Waits for every queued write; returns the store errors so far.
    func flush() async -> [ScoreStoreError] {
        await state.withLock { $0.tail }?.value
        return failures
    }

    private func enqueue(_ write: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let previous = state.tail
            state.tail = Task {
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
