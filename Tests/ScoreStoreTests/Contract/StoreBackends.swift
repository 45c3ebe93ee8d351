import Foundation
@testable import ScoreStore
import TestSupport

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

    let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)

    /// The database: `KARAOKE_TEST_POSTGRES` unless another (a private cluster) is given.
    var address: String = Self.address ?? "postgres://nobody@localhost/none"

    var url: String { address + (address.contains("?") ? "&" : "?") + "schema=\(schema)" }

    func open(room: String) throws -> any ScoreStore {
        PostgresScoreStore(url: try PostgresStoreURL(url), room: room)
    }

    /// Drops the test's schema and everything in it (the shared test database stays small).
    func dropSchema() async {
        guard let parsed = try? PostgresStoreURL(url), let connection = try? PostgresConnection(parsed) else { return }
        _ = try? connection.execute(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
    }

    /// Runs `body` on a fresh backend, then drops its schema whether it passed or not.
    static func withFresh(_ body: (PostgresBackend) async throws -> Void) async throws {
        let backend = PostgresBackend()
        do { try await body(backend) } catch {
            await backend.dropSchema()
            throw error
        }
        await backend.dropSchema()
    }
}

/// A PostgreSQL cluster of a test's own (scripts/lib/postgres-test-env.sh), for tests that stop
/// and start the server: the shared one keeps serving the other tests meanwhile.
final class PrivatePostgresCluster {
    let address: String
    let directory: String

    init() throws {
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        let script = root.appendingPathComponent("scripts/lib/postgres-test-env.sh").path
        let output = try Self.run("/bin/bash", ["-c", ". '\(script)' && pg_test_start && echo \"$KARAOKE_TEST_POSTGRES\" && echo \"$PG_DIR\""])
        let lines = output.split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { throw ScoreStoreError.database(path: script, detail: "pg_test_start printed \(output)") }
        address = lines[lines.count - 2]
        directory = lines[lines.count - 1]
    }

    func stop() throws { _ = try Self.run(directory + "/ctl", ["stop"]) }
    func start() throws { _ = try Self.run(directory + "/ctl", ["start"]) }

    deinit {
        _ = try? Self.run(directory + "/ctl", ["stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a program through the tests' one spawn helper (`ChildProcess`: posix_spawn and a
    /// bounded waitpid, output to files since the server pg_ctl starts outlives the call).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(executable, arguments, timeout: 120)
        guard result.status == 0 else {
            throw ScoreStoreError.database(path: executable, detail: "\(arguments) ended with status \(result.status): \(result.outText)\(result.errText)")
        }
        return result.outText
    }
}
