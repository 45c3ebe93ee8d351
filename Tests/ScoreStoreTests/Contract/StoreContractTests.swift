import Testing
@testable import ScoreStore

/// The store contract on the embedded SQLite file.
@Suite struct SQLiteStoreContractTests {
    let backend = SQLiteBackend()
    @Test func linesAreDurable() async throws { try await StoreContract.linesAreDurableBeforeThePerformanceFinishes(backend) }
    @Test func boards() async throws { try await StoreContract.leaderboardHistoryAndMissedLines(backend) }
    @Test func thisWeek() async throws { try await StoreContract.thisWeeksBoardLeavesOutOlderRuns(backend) }
    @Test func missingPerformance() async throws { try await StoreContract.recordingForAMissingPerformanceIsAClearError(backend) }
    @Test func retriedWrites() async throws { try await StoreContract.retriedWritesStoreEachLineOnce(backend) }
    @Test func rooms() async throws { try await StoreContract.roomsShareOneStore(backend) }
    @Test func queuedWrites() async throws { try await StoreContract.queuedWritesReachTheStore(backend) }
    @Test func venueRooms() async throws { try await StoreContract.roomsAnnounceThemselves(backend) }
}

/// The same contract on PostgreSQL (a schema of its own per test, dropped after it).
@Suite(.enabled(if: PostgresBackend.isAvailable, Comment(rawValue: PostgresBackend.absentReason)))
struct PostgresStoreContractTests {
    @Test func linesAreDurable() async throws { try await PostgresBackend.withFresh(StoreContract.linesAreDurableBeforeThePerformanceFinishes) }
    @Test func boards() async throws { try await PostgresBackend.withFresh(StoreContract.leaderboardHistoryAndMissedLines) }
    @Test func thisWeek() async throws { try await PostgresBackend.withFresh(StoreContract.thisWeeksBoardLeavesOutOlderRuns) }
    @Test func missingPerformance() async throws { try await PostgresBackend.withFresh(StoreContract.recordingForAMissingPerformanceIsAClearError) }
    @Test func retriedWrites() async throws { try await PostgresBackend.withFresh(StoreContract.retriedWritesStoreEachLineOnce) }
    @Test func rooms() async throws { try await PostgresBackend.withFresh(StoreContract.roomsShareOneStore) }
    @Test func queuedWrites() async throws { try await PostgresBackend.withFresh(StoreContract.queuedWritesReachTheStore) }
    @Test func venueRooms() async throws { try await PostgresBackend.withFresh(StoreContract.roomsAnnounceThemselves) }
}
