import Foundation
import Logging
import Scoring

/// The venue's shared results database: every room (and `karaoke score --save`) writes to one
/// PostgreSQL, each performance row carrying its room's name.
///
/// Opening never waits for the server: the connection is made on first use and made again
/// after PostgreSQL restarts or the network drops it, so `serve` starts while the database is
/// down (`checkConnection` tells it to warn) and the write queue holds the lines until it is back.
/// The connection is libpq's, whose calls block: the actor runs on a thread of its own
/// (`PostgresStoreExecutor`), so a slow database never holds the cooperative pool.
/// Every write is one statement (or one transaction) and idempotent, so a write retried after
/// its answer was lost stores each line once.
public actor PostgresScoreStore: ScoreStore {
    public nonisolated let url: PostgresStoreURL
    public nonisolated let room: String
    public nonisolated var location: String { url.description }
    public nonisolated let writeQueue: ScoreWriteQueue
    let logger: Logger
    private let executor = PostgresStoreExecutor()
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var connection: PostgresConnection?
    /// Connections attempted (a later one is a reconnection, worth a line in the log).
    private var connectionCount = 0

    public init(url: PostgresStoreURL, room: String, logger: Logger = Logger(label: "karaoke.store.postgres")) {
        self.url = url
        self.room = room
        self.logger = logger
        writeQueue = ScoreWriteQueue(path: url.description)
        writeQueue.attach(WeakScoreWriter(store: self))
    }

    /// Connects now (and migrates): nil when the database is reachable, else why not.
    public func checkConnection() async -> ScoreStoreError? {
        do throws(ScoreStoreError) {
            _ = try run { _ in () }
            return nil
        } catch {
            return error
        }
    }

    /// Closes the connection (the store reconnects if used again).
    public func close() async {
        connection = nil
    }

    // MARK: Writing

    public func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 {
        let c = start.configuration
        let status = PerformanceRecord.Status.inProgress.rawValue
        return try run { connection in
            let rows = try connection.execute("""
                INSERT INTO performance (songId, songTitle, singer, part, difficulty, mode, keyShift, tempo, basis,
                                         total, startedAt, finishedAt, status, room, runKey)
                VALUES (\(start.songId), \(start.songTitle), \(start.singer), \(start.part), \(c.difficulty.rawValue),
                        \(c.mode.rawValue), \(c.keyShift), \(c.tempo), \(start.basis.rawValue), 0, \(date), NULL,
                        \(status), \(room), \(key))
                ON CONFLICT (runKey) DO UPDATE SET runKey = EXCLUDED.runKey
                RETURNING id
                """)
            guard let row = rows.first else { throw PostgresError(message: "INSERT … RETURNING gave no id") }
            return try row.decode("id", as: Int64.self)
        }
    }

    /// Upserts the line and sets the running total in one statement (so it is one transaction).
    public func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {
        let notes = (try? JSONEncoder().encode(line.notes)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        let index = line.lineIndex
        do {
            try run { connection in
                try connection.execute("""
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
                    """)
            }
        } catch {
            if Self.isForeignKeyViolation(error) { throw .noSuchPerformance(id: id) }
            throw error
        }
    }

    public func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) {
        let updated = try run { connection in
            try connection.execute("""
                UPDATE performance SET total = \(total), finishedAt = \(date), status = \(status.rawValue)
                WHERE id = \(id) RETURNING id
                """).count
        }
        if updated == 0 { throw .noSuchPerformance(id: id) }
    }

    // MARK: Connection

    /// Runs `body` on the connection, connecting (and migrating) first if needed. A connection
    /// that failed is dropped, so the next call (the write queue's retry) connects anew.
    @discardableResult
    func run<T>(_ body: (PostgresConnection) throws -> T) throws(ScoreStoreError) -> T {
        let connection: PostgresConnection
        do { connection = try connected() } catch {
            throw .cannotOpen(path: location, detail: "cannot reach PostgreSQL: \(error)")
        }
        do {
            return try body(connection)
        } catch let error as PostgresError where error.connectionLost || connection.isBroken {
            if self.connection === connection { self.connection = nil }
            throw .cannotOpen(path: location, detail: "lost the connection to PostgreSQL: \(error)")
        } catch let error as ScoreStoreError {
            throw error
        } catch {
            throw .database(path: location, detail: "\(error)")
        }
    }

    private func connected() throws(PostgresError) -> PostgresConnection {
        if let connection, !connection.isBroken { return connection }
        connection = nil
        connectionCount += 1
        let made = try PostgresConnection(url)
        do {
            try PostgresMigrations.prepare(made, schema: url.schema)
        } catch let error as PostgresError {
            throw error
        } catch {
            throw PostgresError(message: "\(error)")
        }
        if connectionCount > 1 { logger.info("scores: connected to \(location) again") }
        connection = made
        return made
    }

    // MARK: Errors

    static func isForeignKeyViolation(_ error: ScoreStoreError) -> Bool {
        if case .database(_, let detail) = error { return detail.contains("SQLSTATE 23503") }
        return false
    }
}
