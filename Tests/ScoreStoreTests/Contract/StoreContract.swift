import Foundation
import Scoring
import SongModel
import Synchronization
import Testing
@testable import ScoreStore

/// What every score store promises, whichever database keeps it. `SQLiteStoreContractTests`
/// and `PostgresStoreContractTests` run each of these against their backend.
enum StoreContract {
    static func start(_ song: String, singer: String, difficulty: Difficulty = .medium) -> PerformanceStart {
        PerformanceStart(songId: song, songTitle: "Title of \(song)", singer: singer, part: 0,
                         configuration: ScoringConfiguration(difficulty: difficulty), basis: .notes)
    }

    static func line(_ index: Int, perfection: Double, score: Double = 1000) -> LineResult {
        LineResult(lineIndex: index, text: "line \(index)", start: Double(index), end: Double(index) + 1,
                   score: score * perfection, maxScore: score, bonus: 100 * perfection, perfection: perfection,
                   rating: LineRating(perfection: perfection),
                   notes: [NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4, creditedBeats: 4 * perfection, deviationCents: 12)])
    }

    @discardableResult
    static func perform(_ store: any ScoreStore, _ song: String, singer: String, perfections: [Double],
                        difficulty: Difficulty = .medium, finishedAt: Date = Date()) async throws -> Int64 {
        let id = try await store.begin(start(song, singer: singer, difficulty: difficulty))
        for (i, p) in perfections.enumerated() { try await store.record(line(i, perfection: p), performance: id, micLost: false) }
        let lines = try await store.lines(of: id)
        try await store.finish(id, total: Int(lines.reduce(0) { $0 + $1.score + $1.bonus }.rounded()), status: .complete, at: finishedAt)
        return id
    }

    static func linesAreDurableBeforeThePerformanceFinishes(_ backend: some StoreBackend) async throws {
        let store = try backend.open(room: "Blue")
        let id = try await store.begin(start("song-a", singer: "Ana"))
        try await store.record(line(0, perfection: 1), performance: id, micLost: false)
        try await store.record(line(1, perfection: 0.5), performance: id, micLost: true)
        // Another connection (as after a crash and restart) sees both lines and the running total.
        let other = try backend.open(room: "Blue")
        let record = try #require(try await other.performance(id))
        #expect(record.status == .inProgress)
        #expect(record.total == 1000 + 100 + 500 + 50)
        #expect(record.room == "Blue")
        let lines = try await other.lines(of: id)
        #expect(lines.map(\.lineIndex) == [0, 1])
        #expect(lines.map(\.micLost) == [false, true])
        #expect(lines[1].rating == "good")
        #expect(lines[0].notesJSON.contains("\"deviationCents\":12"))
        try await store.finish(id, total: 1650, status: .complete, at: Date())
        #expect(try await other.performance(id)?.status == .complete)
        #expect(try await other.performance(id + 1000) == nil)
    }

    static func leaderboardHistoryAndMissedLines(_ backend: some StoreBackend) async throws {
        let store = try backend.open(room: "Blue")
        try await perform(store, "song-a", singer: "Ana", perfections: [1, 1, 0.2])
        try await perform(store, "song-a", singer: "Bo", perfections: [1, 1, 1])
        try await perform(store, "song-a", singer: "Ana", perfections: [1, 0.1, 0.3])
        try await perform(store, "song-a", singer: "Cy", perfections: [1, 1, 1], difficulty: .hard)
        try await perform(store, "song-b", singer: "Ana", perfections: [0.9])
        let unfinished = try await store.begin(start("song-a", singer: "Dee"))
        try await store.record(line(0, perfection: 1), performance: unfinished, micLost: false)

        let board = try await store.leaderboard(songId: "song-a", difficulty: .medium, since: nil, limit: 10)
        #expect(board.map(\.singer) == ["Bo", "Ana", "Ana"])
        #expect(board.map(\.total) == [3300, 2420, 1540])
        #expect(try await store.leaderboard(songId: "song-a", difficulty: .hard, since: nil, limit: 10).map(\.singer) == ["Cy"])
        #expect(try await store.leaderboard(songId: nil, difficulty: nil, since: nil, limit: 10).count == 5,
                "in-progress performances are not ranked")
        #expect(try await store.leaderboard(songId: nil, difficulty: nil, since: nil, limit: 2).count == 2)

        #expect(try await store.history(singer: "Ana", songId: nil, limit: 50).map(\.songId) == ["song-b", "song-a", "song-a"])
        #expect(try await store.history(singer: "Ana", songId: "song-a", limit: 1).count == 1)
        #expect(try await store.recentRuns(songId: nil, limit: 40).first?.singer == "Dee", "newest first, unfinished included")
        #expect(try await store.recentRuns(songId: "song-b", limit: 40).map(\.singer) == ["Ana"])

        let missed = try await store.mostMissedLines(singer: "Ana", songId: nil, limit: 10)
        #expect(missed.first?.lineIndex == 2)
        #expect(missed.first?.misses == 2)
        #expect(missed.first?.attempts == 2)
        #expect(missed.first?.songTitle == "Title of song-a")
        #expect(missed.map(\.lineIndex) == [2, 1])
        #expect(try await store.mostMissedLines(singer: "Bo", songId: nil, limit: 10).isEmpty)
    }

    static func thisWeeksBoardLeavesOutOlderRuns(_ backend: some StoreBackend) async throws {
        let store = try backend.open(room: "Blue")
        let now = Date()
        try await perform(store, "song-a", singer: "Old", perfections: [1, 1], finishedAt: now.addingTimeInterval(-10 * 86400))
        try await perform(store, "song-a", singer: "New", perfections: [0.5], finishedAt: now.addingTimeInterval(-3600))
        let week = try await store.leaderboard(songId: nil, difficulty: nil, since: now.addingTimeInterval(-7 * 86400), limit: 10)
        #expect(week.map(\.singer) == ["New"])
        #expect(try await store.leaderboard(songId: nil, difficulty: nil, since: nil, limit: 10).map(\.singer) == ["Old", "New"])
    }

    static func recordingForAMissingPerformanceIsAClearError(_ backend: some StoreBackend) async throws {
        let store = try backend.open(room: "Blue")
        await #expect(throws: ScoreStoreError.noSuchPerformance(id: 42)) {
            try await store.record(line(0, perfection: 1), performance: 42, micLost: false)
        }
        await #expect(throws: ScoreStoreError.noSuchPerformance(id: 42)) {
            try await store.finish(42, total: 1, status: .complete, at: Date())
        }
    }

    /// A write retried after its answer was lost must not store anything twice.
    static func retriedWritesStoreEachLineOnce(_ backend: some StoreBackend) async throws {
        let store = try backend.open(room: "Blue")
        let first = try await store.begin(start("song-a", singer: "Ana"), key: "run-1", at: Date())
        let again = try await store.begin(start("song-a", singer: "Ana"), key: "run-1", at: Date())
        #expect(first == again)
        let other = try await store.begin(start("song-a", singer: "Ana"), key: "run-2", at: Date())
        #expect(other != first)
        for _ in 0..<3 { try await store.record(line(0, perfection: 1), performance: first, micLost: false) }
        try await store.record(line(1, perfection: 0.5), performance: first, micLost: false)
        try await store.record(line(1, perfection: 0.5), performance: first, micLost: false)
        #expect(try await store.lines(of: first).count == 2)
        #expect(try await store.performance(first)?.total == 1100 + 550)
        try await store.finish(first, total: 1650, status: .complete, at: Date())
        try await store.finish(first, total: 1650, status: .complete, at: Date())
        #expect(try await store.history(singer: "Ana", songId: nil, limit: 50).count == 2)
    }

    /// Several rooms write to one store; every row says which room it came from.
    static func roomsShareOneStore(_ backend: some StoreBackend) async throws {
        let blue = try backend.open(room: "Blue")
        let red = try backend.open(room: "Red")
        async let a: Int64 = perform(blue, "song-a", singer: "Ana", perfections: [1, 0.5, 1])
        async let b: Int64 = perform(red, "song-a", singer: "Bo", perfections: [1, 1, 1])
        _ = try await (a, b)
        let board = try await blue.leaderboard(songId: "song-a", difficulty: nil, since: nil, limit: 10)
        #expect(board.map(\.singer) == ["Bo", "Ana"])
        #expect(board.map(\.room) == ["Red", "Blue"])
        #expect(try await red.lines(of: board[1].id!).count == 3)
    }

    /// The room's path: writes queued during a song reach the store in order.
    static func queuedWritesReachTheStore(_ backend: some StoreBackend) async throws {
        let store = try backend.open(room: "Blue")
        let queue = store.writeQueue
        let run = queue.begin(start("song-q", singer: "Ana"))
        for i in 0..<20 { queue.record(line(i, perfection: 0.5), run: run) }
        queue.finish(run, total: 12345)
        #expect(await queue.flush(timeout: 60))
        let stored = try await store.history(singer: "Ana", songId: "song-q", limit: 5)
        #expect(stored.count == 1)
        #expect(stored.first?.total == 12345)
        #expect(stored.first?.status == .complete)
        #expect(try await store.lines(of: stored[0].id!).map(\.lineIndex) == Array(0..<20))
    }
}

extension StoreContract {
    /// Rooms announce themselves; the venue lists those with a recent heartbeat.
    static func roomsAnnounceThemselves(_ backend: some StoreBackend) async throws {
        let blue = try backend.open(room: "Blue")
        let red = try backend.open(room: "Red")
        let now = Date()
        try await blue.announce(RoomPresence(name: "Blue", joinURL: "http://10.0.0.2:8080/remote", nowPlaying: nil,
                                             busy: false, heartbeatAt: now.addingTimeInterval(-5)))
        try await red.announce(RoomPresence(name: "Red", joinURL: "http://10.0.0.3:8080/remote", nowPlaying: "Waterloo – ABBA",
                                            busy: true, heartbeatAt: now.addingTimeInterval(-600)))
        #expect(try await blue.rooms(seenSince: now.addingTimeInterval(-60)).map(\.name) == ["Blue"], "Red's heartbeat is old")
        // A heartbeat refreshes the row rather than adding one.
        try await red.announce(RoomPresence(name: "Red", joinURL: "http://10.0.0.3:8080/remote", nowPlaying: "Waterloo – ABBA",
                                            busy: true, heartbeatAt: now))
        let live = try await blue.rooms(seenSince: now.addingTimeInterval(-60))
        #expect(live.map(\.name) == ["Blue", "Red"])
        #expect(live[1].busy && live[1].nowPlaying == "Waterloo – ABBA")
        #expect(live[0].nowPlaying == nil && !live[0].busy)
        #expect(try await red.rooms(seenSince: .distantPast).count == 2)
    }
}
