import Foundation
import GRDB
import Scoring
import Testing
@testable import ScoreStore

/// Opening checks: damage found at open (not mid-song), and no memory-mapped -shm to die on.
@Suite struct ScoreStoreOpeningTests {
    let directory = NSTemporaryDirectory() + "store-open-\(UUID().uuidString)"
    var path: String { directory + "/karaoke.sqlite" }

    /// A database whose tables are intact but whose index is damaged opens without error in
    /// the old code (the schema reads fine); `PRAGMA quick_check` at open reports it.
    @Test func aDamagedIndexIsFoundAtOpenAndTheFileIsLeftAsItIs() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try SQLiteScoreStore(path: path)
            let id = try await store.begin(PerformanceStart(songId: "s", songTitle: "S", singer: "Bo", part: 0,
                                                            configuration: ScoringConfiguration(), basis: .notes))
            try await store.finish(id, total: 10)
        }
        // Damage the singer index's root page behind SQLite's back (an invalid page type):
        // opening and migrating never read that page, so only a check finds it.
        let rootPage = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_schema WHERE name = 'performance_on_singer'") ?? 0
        }
        #expect(rootPage > 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[(rootPage - 1) * 4096] = 0x55
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try SQLiteScoreStore(path: path)
            Issue.record("a damaged index was not noticed at open")
        } catch {
            guard case .corrupt(let named, let detail) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            #expect(named == path)
            #expect(detail.contains("quick_check"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged, "never overwritten")
    }

    /// The SIGBUS path of issue 12 was the memory-mapped WAL index: the store now has none.
    @Test func aWritingStoreUsesNoSharedMemoryFile() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteScoreStore(path: path)
        _ = try await store.begin(PerformanceStart(songId: "s", songTitle: "S", singer: "Bo", part: 0,
                                                   configuration: ScoringConfiguration(), basis: .notes))
        #expect(try store.journalMode() == "delete")
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// A database an older server left in WAL mode is switched to the rollback journal on open.
    @Test func anOlderWALDatabaseIsSwitchedOnOpen() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let pool = try DatabasePool(path: path)
            try await pool.write { db in try db.execute(sql: "CREATE TABLE x(a)") }
        }
        let store = try SQLiteScoreStore(path: path)
        #expect(try store.journalMode() == "delete")
    }
}
