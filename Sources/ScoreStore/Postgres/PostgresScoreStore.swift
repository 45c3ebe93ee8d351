import Foundation
import Logging
import PostgresNIO
import Scoring

/// The venue's shared results database: every room (and `karaoke score --save`) writes to one
/// PostgreSQL, each performance row carrying its room's name.
///
/// Opening never waits for the server: the connection is made on first use and made again
/// after PostgreSQL restarts or the network drops it, so `serve` starts while the database is
/// down (`checkConnection` tells it to warn) and the write queue holds the lines until it is back.
/// Every write is one statement (or one transaction) and idempotent, so a write retried after
/// its answer was lost stores each line once.
public actor PostgresScoreStore: ScoreStore {
    public nonisolated let url: PostgresStoreURL
    public nonisolated let room: String
    public nonisolated var location: String { url.description }
    public nonisolated let writeQueue: ScoreWriteQueue
    let logger: Logger
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?
    private var connectionCount = 0

    public init(url: PostgresStoreURL, room: String, logger: Logger = Logger(label: "karaoke.store.postgres")) {
        self.url = url
        self.room = room
        self.logger = logger
        writeQueue = ScoreWriteQueue(path: url.description)
        writeQueue.attach(WeakScoreWriter(store: self))
    }

    deinit {
        // postgres-nio wants every connection closed before it is released: the close
        // callback keeps it alive until the channel is shut.
        if let connection { connection.close().whenComplete { _ in _ = connection } }
    }

    /// Connects now (and migrates): nil when the database is reachable, else why not.
    public func checkConnection() async -> ScoreStoreError? {
        do throws(ScoreStoreError) {
            _ = try await run { _ in () }
            return nil
        } catch {
            return error
        }
    }

    /// Closes the connection (the store reconnects if used again).
    public func close() async {
        let open = connection
        connection = nil
        try? await open?.close()
    }

    // MARK: Writing

    public func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 {
        let c = start.configuration
        let status = PerformanceRecord.Status.inProgress.rawValue
        return try await run { connection in
            let rows = try await connection.query("""
                INSERT INTO performance (songId, songTitle, singer, part, difficulty, mode, keyShift, tempo, basis,
                                         total, startedAt, finishedAt, status, room, runKey)
                VALUES (\(start.songId), \(start.songTitle), \(start.singer), \(start.part), \(c.difficulty.rawValue),
                        \(c.mode.rawValue), \(c.keyShift), \(c.tempo), \(start.basis.rawValue), 0, \(date), NULL,
                        \(status), \(room), \(key))
                ON CONFLICT (runKey) DO UPDATE SET runKey = EXCLUDED.runKey
                RETURNING id
                """, logger: logger)
            for try await id in rows.decode(Int64.self) { return id }
            throw ScoreStoreError.database(path: location, detail: "INSERT … RETURNING gave no id")
        }
    }

    /// Upserts the line and sets the running total in one statement (so it is one transaction).
    public func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {
        let notes = (try? JSONEncoder().encode(line.notes)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        let index = line.lineIndex
        do {
            try await run { connection in
                try await connection.query("""
                    WITH line AS (
                        INSERT INTO lineResult (performanceId, lineIndex, text, score, maxScore, bonus, perfection, rating,
                                                notesJSON, micLost)
                        VALUES (\(id), \(index), \(line.text), \(line.score), \(line.maxScore), \(line.bonus),
                                \(line.perfection), \(line.rating.rawValue), \(notes), \(micLost))
                        ON CONFLICT (performanceId, lineIndex) DO UPDATE SET
                            text = EXCLUDED.text, score = EXCLUDED.score, maxScore = EXCLUDED.maxScore,
                            bonus = EXCLUDED.bonus, perfection = EXCLUDED.perfection, rating = EXCLUDED.rating,
                            notesJSON = EXCLUDED.notesJSON, micLost = EXCLUDED.micLost
                        RETURNING performanceId)
                    UPDATE performance SET total = ROUND((
                        (SELECT COALESCE(SUM(score + bonus), 0) FROM lineResult WHERE performanceId = \(id) AND lineIndex <> \(index))
                        + \(line.score + line.bonus))::numeric)::bigint
                    WHERE id IN (SELECT performanceId FROM line)
                    """, logger: logger)
            }
        } catch {
            if Self.isForeignKeyViolation(error) { throw .noSuchPerformance(id: id) }
            throw error
        }
    }

    public func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) {
        let updated = try await run { connection in
            let rows = try await connection.query("""
                UPDATE performance SET total = \(total), finishedAt = \(date), status = \(status.rawValue)
                WHERE id = \(id) RETURNING id
                """, logger: logger)
            var count = 0
            for try await _ in rows { count += 1 }
            return count
        }
        if updated == 0 { throw .noSuchPerformance(id: id) }
    }

    // MARK: Connection

    /// Runs `body` on the connection, connecting (and migrating) first if needed. A connection
    /// that failed is dropped, so the next call (the write queue's retry) connects anew.
    @discardableResult
    func run<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws(ScoreStoreError) -> T {
        let connection: PostgresConnection
        do { connection = try await connected() } catch {
            throw .cannotOpen(path: location, detail: "cannot reach PostgreSQL: \(Self.describe(error))")
        }
        do {
            return try await body(connection)
        } catch {
            if connection.isClosed || Self.isConnectionFailure(error) {
                if self.connection === connection { self.connection = nil }
                try? await connection.close()
                throw .cannotOpen(path: location, detail: "lost the connection to PostgreSQL: \(Self.describe(error))")
            }
            if let known = error as? ScoreStoreError { throw known }
            throw .database(path: location, detail: Self.describe(error))
        }
    }

    private func connected() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        if let connecting { return try await connecting.value }
        connectionCount += 1
        // On the write queue's own thread, like the drain that usually asks: a cooperative pool
        // held by CPU-bound work (2 threads on 2 cores) must not delay reconnecting.
        let task = Task(executorPreference: writeQueue.executor) { [url, logger, connectionCount] in
            let connection = try await PostgresConnection.connect(configuration: url.configuration, id: connectionCount, logger: logger)
            do {
                try await PostgresMigrations.prepare(connection, schema: url.schema, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            return connection
        }
        connecting = task
        defer { connecting = nil }
        let made = try await task.value
        connection = made
        return made
    }

    // MARK: Errors

    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return !(error is ScoreStoreError) && !(error is PostgresTransactionError) }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown].contains(error.code)
    }

    static func isForeignKeyViolation(_ error: ScoreStoreError) -> Bool {
        if case .database(_, let detail) = error { return detail.contains("SQLSTATE 23503") }
        return false
    }

    /// PSQLError's own description hides the server's message; this one says what happened.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let info = error.serverInfo {
                let message = info[.message] ?? "server error"
                return "\(message) (SQLSTATE \(info[.sqlState] ?? "?"))"
            }
            return error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)"
        }
        if let error = error as? PostgresTransactionError {
            if let inner = error.closureError ?? error.beginError ?? error.commitError { return describe(inner) }
        }
        return "\(error)"
    }
}
