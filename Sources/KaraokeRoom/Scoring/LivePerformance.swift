import Foundation
import Scoring
import ScoreStore
import SongModel

/// One singer's live performance: the same `ScoringSession` as offline scoring, plus the
/// store, line by line. Lives off the audio path: the capture side hands over pitch samples
/// already stamped in media time (see `MediaClock`), the room calls `advance(to:)` with the
/// playback position and publishes the lines it returns.
///
/// A store failure (locked, damaged, disk full) never stops scoring: the error is kept in
/// `storeErrors` for the room to show, and later lines are still attempted.
public actor LivePerformance {
    public nonisolated let start: PerformanceStart
    private var session: ScoringSession
    private let store: ScoreStore?
    private var performanceId: Int64?
    /// The pending `begin`, shared so concurrent first lines create one row.
    private var beginning: Task<Result<Int64, ScoreStoreError>, Never>?
    public private(set) var storeErrors: [ScoreStoreError] = []

    public init(song: Song, songId: String, partIndex: Int, singer: String, configuration: ScoringConfiguration,
                derivedNotes: Bool = false, store: ScoreStore?) throws(ReferenceError) {
        session = try ScoringSession(song: song, partIndex: partIndex, configuration: configuration, derivedNotes: derivedNotes)
        start = PerformanceStart(
            songId: songId, songTitle: song.metadata.title, singer: singer, part: partIndex,
            configuration: configuration, basis: session.reference.basis)
        self.store = store
    }

    public func feed(_ samples: [PitchSample]) {
        session.feed(contentsOf: samples)
    }

    /// Closes, stores and returns the lines that are over at playback `position` (media seconds).
    public func advance(to position: Double) async -> [LineResult] {
        let closed = session.advance(to: position)
        for line in closed { await save(line) }
        return closed
    }

    /// Closes every remaining line and marks the performance complete.
    public func finish() async -> PerformanceResult {
        let before = session.lineResults.count
        let result = session.finish()
        for line in result.lines[before...] { await save(line) }
        if let store, let id = await performanceIdIfStored() {
            do { try await store.finish(id, total: result.total) } catch { storeErrors.append(error) }
        }
        return result
    }

    /// Results so far.
    public var result: PerformanceResult { session.result }

    private func save(_ line: LineResult) async {
        guard let store, let id = await performanceIdIfStored() else { return }
        do { try await store.record(line, performance: id) } catch { storeErrors.append(error) }
    }

    /// Starts the stored performance on the first line, so an aborted intro leaves no row.
    private func performanceIdIfStored() async -> Int64? {
        if let performanceId { return performanceId }
        guard let store else { return nil }
        let start = start
        let task = beginning ?? Task { () -> Result<Int64, ScoreStoreError> in
            do { return .success(try await store.begin(start)) } catch let error as ScoreStoreError {
                return .failure(error)
            } catch {
                return .failure(.database(path: store.path, detail: "\(error)"))
            }
        }
        beginning = task
        switch await task.value {
        case .success(let id):
            performanceId = id
        case .failure(let error):
            if beginning == task {
                storeErrors.append(error)
                beginning = nil
            }
        }
        return performanceId
    }
}
