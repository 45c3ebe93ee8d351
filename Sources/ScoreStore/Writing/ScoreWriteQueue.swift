import Foundation
import Scoring
import Synchronization

/// Live score writes, in call order, off the caller's thread: a failing write (database made
/// unwritable, locked, disk full) is retried with back-off, and it and everything queued after
/// it stay in memory until the database takes them, so no line is lost while the server runs.
/// The first failure of a streak, and the recovery, are reported (`setReporter`); writes that
/// can never succeed, do not fit, or are still held when the server stops are reported line by line.
///
/// Calls return at once and never block on the database (the pitch workers call them).
public final class ScoreWriteQueue: Sendable {
    /// One performance's writes (its `begin` id is known only once the database took it).
    public struct Run: Hashable, Sendable {
        let number: UInt64
        /// The performance's key in the store: a begin retried after a lost answer finds its row.
        let key: String
    }

    enum Operation: Sendable {
        case begin(Run, PerformanceStart, Date)
        case record(Run, LineResult, micLost: Bool)
        case finish(Run, total: Int, status: PerformanceRecord.Status, Date)

        var run: Run {
            switch self {
            case .begin(let run, _, _), .record(let run, _, _), .finish(let run, _, _, _): run
            }
        }
    }

    private struct State {
        var writer: (any ScoreWriting)?
        var reporter: (@Sendable (ScoreWriteReport) -> Void)?
        var pending: [Operation] = []
        var starts: [Run: PerformanceStart] = [:]
        var ids: [Run: Int64] = [:]
        var nextRun: UInt64 = 0
        var draining = false
    }

    public let path: String
    /// Back-off between attempts: doubles from `initialDelay` up to `maxDelay` seconds.
    public let initialDelay: Double
    public let maxDelay: Double
    /// Most writes held in memory (a song has ~100 lines; this is hours of singing).
    public let capacity: Int
    private let state: Mutex<State>

    public init(path: String, writer: (any ScoreWriting)? = nil, initialDelay: Double = 0.2, maxDelay: Double = 5,
                capacity: Int = 50_000) {
        self.path = path
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.capacity = capacity
        state = Mutex(State(writer: writer))
    }

    func attach(_ writer: any ScoreWriting) {
        state.withLock { $0.writer = writer }
    }

    /// Who hears about failures and recoveries (the server logs them and tells host clients).
    public func setReporter(_ reporter: (@Sendable (ScoreWriteReport) -> Void)?) {
        state.withLock { $0.reporter = reporter }
    }

    /// Writes waiting for the database.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    // MARK: Writing

    /// Queues the start of a performance; its row is created when the database takes it.
    public func begin(_ start: PerformanceStart, at date: Date = Date()) -> Run {
        let run = state.withLock { state in
            state.nextRun += 1
            let run = Run(number: state.nextRun, key: UUID().uuidString)
            state.starts[run] = start
            return run
        }
        enqueue(.begin(run, start, date))
        return run
    }

    public func record(_ line: LineResult, run: Run, micLost: Bool = false) {
        enqueue(.record(run, line, micLost: micLost))
    }

    public func finish(_ run: Run, total: Int, status: PerformanceRecord.Status = .complete, at date: Date = Date()) {
        enqueue(.finish(run, total: total, status: status, date))
    }

    /// Returns once every queued write is stored, or after `timeout` seconds; true when nothing is pending.
    @discardableResult
    public func flush(timeout: Double = 3600) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(timeout, 0) * 1000))
        while state.withLock({ !$0.pending.isEmpty || $0.draining }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return pendingCount == 0
    }

    /// At shutdown: tries for up to `timeout` seconds, then reports what could not be stored, line by line.
    public func close(timeout: Double) async {
        guard !(await flush(timeout: timeout)) else { return }
        let left = state.withLock { state in state.pending.map { Self.describe($0, starts: state.starts) } }
        report(.dropped(reason: "the server stopped while the database still refused them", lines: left))
    }

    // MARK: Draining

    private func enqueue(_ operation: Operation) {
        let (start, overflow) = state.withLock { state -> (Bool, Operation?) in
            guard state.pending.count < capacity else { return (false, operation) }
            state.pending.append(operation)
            if state.draining { return (false, nil) }
            state.draining = true
            return (true, nil)
        }
        if let overflow {
            let line = state.withLock { Self.describe(overflow, starts: $0.starts) }
            report(.dropped(reason: "\(capacity) writes already wait in memory", lines: [line]))
        }
        if start { Task.detached(executorPreference: StoreWriteExecutor.shared) { [self] in await drain() } }
    }

    private func drain() async {
        var delay = initialDelay
        var failingSince: ContinuousClock.Instant?
        var writtenWhileFailing = 0
        while let (operation, writer) = next() {
            do throws(ScoreStoreError) {
                guard let writer else { throw ScoreStoreError.database(path: path, detail: "no database attached") }
                try await perform(operation, writer)
                state.withLock { _ = $0.pending.removeFirst() }
                if failingSince != nil { writtenWhileFailing += 1 }
                if state.withLock({ $0.pending.isEmpty }), let since = failingSince {
                    let seconds = Double((ContinuousClock.now - since).components.seconds)
                    report(.recovered(written: writtenWhileFailing, afterSeconds: seconds))
                    failingSince = nil
                    writtenWhileFailing = 0
                }
                delay = initialDelay
            } catch {
                if case .noSuchPerformance = error {
                    // Retrying cannot bring a deleted row back: say what is lost and go on.
                    let line = state.withLock { state in
                        Self.describe(state.pending.removeFirst(), starts: state.starts)
                    }
                    report(.dropped(reason: "\(error)", lines: [line]))
                    continue
                }
                if failingSince == nil {
                    failingSince = .now
                    report(.failing(error, pending: pendingCount))
                }
                try? await Task.sleep(for: .seconds(delay))
                delay = min(delay * 2, maxDelay)
            }
        }
    }

    /// The head of the queue, or nil (and draining stops) when it is empty.
    private func next() -> (Operation, (any ScoreWriting)?)? {
        state.withLock { state in
            guard let first = state.pending.first else {
                state.draining = false
                return nil
            }
            return (first, state.writer)
        }
    }

    private func perform(_ operation: Operation, _ writer: any ScoreWriting) async throws(ScoreStoreError) {
        switch operation {
        case .begin(let run, let start, let date):
            guard state.withLock({ $0.ids[run] }) == nil else { return }
            let id = try await writer.begin(start, key: run.key, at: date)
            state.withLock { $0.ids[run] = id }
        case .record(let run, let line, let micLost):
            try await writer.record(line, performance: try id(of: run), micLost: micLost)
        case .finish(let run, let total, let status, let date):
            try await writer.finish(try id(of: run), total: total, status: status, at: date)
            state.withLock { state in
                state.ids[run] = nil
                state.starts[run] = nil
            }
        }
    }

    private func id(of run: Run) throws(ScoreStoreError) -> Int64 {
        guard let id = state.withLock({ $0.ids[run] }) else { throw .database(path: path, detail: "the performance was not started") }
        return id
    }

    private func report(_ report: ScoreWriteReport) {
        state.withLock { $0.reporter }?(report)
    }

    static func describe(_ operation: Operation, starts: [Run: PerformanceStart]) -> String {
        let who = starts[operation.run].map { "\($0.singer) in \($0.songId)" } ?? "a performance"
        switch operation {
        case .begin: return "start of \(who)"
        case .record(_, let line, _):
            return "\(who), line \(line.lineIndex + 1) \"\(line.text)\": \(Int((line.score + line.bonus).rounded())) points"
        case .finish(_, let total, let status, _): return "\(who) \(status.rawValue) with \(total) points"
        }
    }
}
