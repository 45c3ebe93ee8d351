import Foundation
@testable import LiveScoring
import Scoring
import ScoreStore
import SongModel

/// One singer's live performance: the same `ScoringSession` as offline scoring, plus the
/// store, line by line. Lives off the audio path: the capture side hands over pitch samples
/// already stamped in media time (see `MediaClock`), the room calls `advance(to:)` with the
/// playback position and publishes the lines it returns.
///
/// Lines go to the store's `ScoreWriteQueue`: a store failure (locked, damaged, disk full)
/// never stops scoring; the lines are kept in memory, retried, and the failure is reported
/// through the queue's reporter (the log and host clients in `serve`).
/// Test support, not compiled into the server: the room's runs are `LiveSingerRun`s
/// (LiveScoring), stored by the same `LiveRunRecorder`.
actor LivePerformance {
    nonisolated let start: PerformanceStart
    private var session: ScoringSession
    private let recorder: LiveRunRecorder?

    init(song: Song, songId: String, partIndex: Int, singer: String, configuration: ScoringConfiguration,
                derivedNotes: Bool = false, store: (any ScoreStore)?) throws(ReferenceError) {
        session = try ScoringSession(song: song, partIndex: partIndex, configuration: configuration, derivedNotes: derivedNotes)
        let start = PerformanceStart(
            songId: songId, songTitle: song.metadata.title, singer: singer, part: partIndex,
            configuration: configuration, basis: session.reference.basis)
        self.start = start
        recorder = store.map { LiveRunRecorder(store: $0, start: start) }
    }

    func feed(_ samples: [PitchSample]) {
        session.feed(contentsOf: samples)
    }

    /// Closes, queues for the store and returns the lines that are over at playback `position` (media seconds).
    func advance(to position: Double) -> [LineResult] {
        let closed = session.advance(to: position)
        for line in closed { recorder?.record(line) }
        return closed
    }

    /// Closes every remaining line and marks the performance complete.
    func finish() -> PerformanceResult {
        let before = session.lineResults.count
        let result = session.finish()
        for line in result.lines[before...] { recorder?.record(line) }
        recorder?.finish(total: result.total)
        return result
    }

    /// Waits up to `timeout` seconds for the queued writes; true once they are all stored.
    @discardableResult
    func flush(timeout: Double = 120) async -> Bool {
        await recorder?.flush(timeout: timeout) ?? true
    }

    /// Results so far.
    var result: PerformanceResult { session.result }
}
