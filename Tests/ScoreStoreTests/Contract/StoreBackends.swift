import Foundation
@testable import ScoreStore

/// Makes fresh, empty stores of one backend for the contract suite. Each backend instance is one
/// database (a SQLite file, or a PostgreSQL schema of its own); `open(room:)` opens another
/// connection to it, as another room or a restarted server would.
protocol StoreBackend: Sendable {
    func open(room: String) throws -> any ScoreStore
}

struct SQLiteBackend: StoreBackend {
    let path = NSTemporaryDirectory() + "store-contract-\(UUID().uuidString)/karaoke.sqlite"

    func open(room: String) throws -> any ScoreStore {
        try SQLiteScoreStore(path: path, room: room)
    }
}

/// A schema of its own in the PostgreSQL that `KARAOKE_TEST_POSTGRES` names (scripts/test starts
/// one: scripts/lib/postgres-test-env.sh).
struct PostgresBackend: StoreBackend {
    static let address = ProcessInfo.processInfo.environment["KARAOKE_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    static var isAvailable: Bool { address != nil }
    static let absentReason = "KARAOKE_TEST_POSTGRES is not set (scripts/test starts a private PostgreSQL and sets it)"
    /// `stop` / `start` for the private test cluster (restart tests); nil when the database is someone else's.
    static let control = ProcessInfo.processInfo.environment["KARAOKE_TEST_POSTGRES_CTL"].flatMap { $0.isEmpty ? nil : $0 }

    let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)

    var url: String {
        let base = Self.address ?? "postgres://nobody@localhost/none"
        return base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
    }

    func open(room: String) throws -> any ScoreStore {
        PostgresScoreStore(url: try PostgresStoreURL(url), room: room)
    }

    /// Runs the test cluster's control script (`stop` or `start`).
    static func cluster(_ verb: String) throws {
        guard let control else { throw ScoreStoreError.database(path: "", detail: "KARAOKE_TEST_POSTGRES_CTL is not set") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: control)
        process.arguments = [verb]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ScoreStoreError.database(path: control, detail: "\(verb) exited with \(process.terminationStatus)")
        }
    }
}
