import Foundation
import Scoring
import ScoreStore

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
}

/// Stores one run in the score store line by line (so a crash loses at most one line); the
/// performance row is created on the first line, so an aborted intro leaves nothing behind.
/// A store error never stops scoring; it is kept for the log.
actor LiveRunRecorder {
    private let store: ScoreStore
    private let start: PerformanceStart
    private var id: Int64?
    private(set) var errors: [ScoreStoreError] = []

    init(store: ScoreStore, start: PerformanceStart) {
        self.store = store
        self.start = start
    }

    func record(_ line: LineResult) async {
        do throws(ScoreStoreError) {
            let id = try await performanceId()
            try await store.record(line, performance: id)
        } catch { errors.append(error) }
    }

    /// Marks the performance complete with its total; an unfinished run stays "in progress" (incomplete).
    func finish(total: Int) async {
        guard let id else { return }
        do throws(ScoreStoreError) { try await store.finish(id, total: total) } catch { errors.append(error) }
    }

    private func performanceId() async throws(ScoreStoreError) -> Int64 {
        if let id { return id }
        let new = try await store.begin(start)
        id = new
        return new
    }
}
