import Foundation
import Scoring

/// Where results are kept: the embedded SQLite file (`SQLiteScoreStore`, the default) or a
/// PostgreSQL database shared by every room of a venue (`PostgresScoreStore`). The room, the
/// command line and the tests see only this protocol; both implementations pass the same test
/// suite (Tests/ScoreStoreTests/ScoreStoreContractTests.swift).
///
/// Writes during a song go through `writeQueue` (ordered, retried, held in memory while the
/// database refuses them, reported); the direct `begin`/`record`/`finish` are what it calls.
/// Every write is idempotent: `begin` with a key already stored returns that row, `record`
/// replaces the line of that index, `finish` sets the final state. A write retried after an
/// answer was lost (PostgreSQL restarted between commit and reply) stores each line once.
public protocol ScoreStore: ScoreWriting, AnyObject {
    /// Where the scores live, for messages: a file path, or a postgres URL without its password.
    var location: String { get }
    /// The room name written into every performance this store begins.
    var room: String { get }
    /// Live writes, ordered and retried (see `ScoreWriteQueue`).
    var writeQueue: ScoreWriteQueue { get }

    func performance(_ id: Int64) async throws(ScoreStoreError) -> PerformanceRecord?
    func lines(of id: Int64) async throws(ScoreStoreError) -> [LineResultRecord]
    /// Best complete performances, highest first (ties: earlier first). Any filter may be nil;
    /// `since` keeps performances finished at or after it (the venue's "this week").
    func leaderboard(songId: String?, difficulty: Difficulty?, since: Date?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord]
    /// A singer's performances, newest first, including unfinished ones.
    func history(singer: String, songId: String?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord]
    /// The lines a singer misses most often (perfection below `scoreMissThreshold`).
    func mostMissedLines(singer: String, songId: String?, limit: Int) async throws(ScoreStoreError) -> [MissedLine]
    /// Every stored run, newest first, whatever its status.
    func recentRuns(songId: String?, limit: Int) async throws(ScoreStoreError) -> [PerformanceRecord]

    /// Records (or refreshes) a room's entry in the venue: its heartbeat.
    func announce(_ presence: RoomPresence) async throws(ScoreStoreError)
    /// The rooms whose heartbeat is at or after `seenSince`, by name.
    func rooms(seenSince: Date) async throws(ScoreStoreError) -> [RoomPresence]
}

/// Below this perfection a line counts as missed (rated worse than Good).
public let scoreMissThreshold = 0.5

extension ScoreStore {
    /// Begins a performance under a new key (a direct call, not a retried one).
    public func begin(_ start: PerformanceStart, at date: Date = Date()) async throws(ScoreStoreError) -> Int64 {
        try await begin(start, key: UUID().uuidString, at: date)
    }
}
