import Foundation
import Scoring
import Synchronization

/// Live score writes, in call order, off the caller's thread: a failing write (database made
/// unwritable, locked, disk full) is retried with back-off, and it and everything queued after
/// it stay in memory until the database takes them, so no line is lost while the server runs.
/// The first failure of a streak, and the recovery, are reported (`setReporter`); writes that
/// can never succeed, do not fit, or are still held when the server stops are reported line by line.
///
/// With a spool attached (`attachSpool`, the PostgreSQL rooms of a venue) every write is also
/// appended to a journal on disk before it is sent, so a room killed while the database is down
/// loses nothing: the next start replays it (see `ScoreSpool`).
///
/// Calls return at once and never block on the database or the disk (the pitch workers call
/// them); the journal is written by the drain, off the caller's thread.
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

        var spoolEntry: ScoreSpool.Entry {
            switch self {
            case .begin(let run, let start, let date):
                ScoreSpool.Entry(kind: .begin, key: run.key, start: start, date: date)
            case .record(let run, let line, let micLost):
                ScoreSpool.Entry(kind: .record, key: run.key, line: line, micLost: micLost)
            case .finish(let run, let total, let status, let date):
                ScoreSpool.Entry(kind: .finish, key: run.key, total: total, status: status, date: date)
            }
        }
    }

    /// A queued write, and whether it is in the spool on disk yet.
    private struct Pending {
        var operation: Operation
        var spooled: Bool
    }

    struct Begun {
        var start: PerformanceStart
        var date: Date
    }

    private struct State {
        var writer: (any ScoreWriting)?
        var reporter: (@Sendable (ScoreWriteReport) -> Void)?
        var pending: [Pending] = []
        var starts: [Run: Begun] = [:]
        var spool: ScoreSpool?
        var spoolFailing = false
        var ids: [Run: Int64] = [:]
        /// The lines stored so far of each run still going: stored again if its database file
        /// is replaced under the server (`ScoreStoreError.reopened`). Emptied at its finish; kept
        /// for the `keptRuns` newest runs only (a practice run after a seek is never finished).
        var written: [Run: [Operation]] = [:]
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
    /// Where the drain runs.
    let executor = StoreWriteExecutor()

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

    /// Journals every write in `directory` from now on (see `ScoreSpool`), after adopting the
    /// journals there of rooms that stopped without storing them (killed while the database was
    /// down): their writes are copied into this room's journal, queued, and their files deleted.
    /// Journals of another store are left alone. Call before the first write.
    @discardableResult
    public func attachSpool(directory: String) throws(ScoreStoreError) -> SpoolAdoption {
        let spool = try ScoreSpool(directory: directory, store: path)
        let (orphans, foreign) = ScoreSpool.orphans(in: directory, store: path)
        var adoption = SpoolAdoption(path: spool.path, foreignFiles: foreign)
        var adopted: [Operation] = []
        for orphan in orphans {
            var runs: [String: Run] = [:]
            var operations: [Operation] = []
            for entry in orphan.entries {
                switch entry.kind {
                case .begin:
                    guard let start = entry.start, runs[entry.key] == nil else { continue }
                    let run = state.withLock { state in
                        state.nextRun += 1
                        let run = Run(number: state.nextRun, key: entry.key)
                        state.starts[run] = Begun(start: start, date: entry.date ?? Date())
                        return run
                    }
                    runs[entry.key] = run
                    adoption.runs += 1
                    operations.append(.begin(run, start, entry.date ?? Date()))
                case .record:
                    guard let run = runs[entry.key], let line = entry.line else { adoption.unreadable += 1; continue }
                    operations.append(.record(run, line, micLost: entry.micLost ?? false))
                    adoption.lines += 1
                case .finish:
                    guard let run = runs[entry.key], let total = entry.total else { adoption.unreadable += 1; continue }
                    operations.append(.finish(run, total: total, status: entry.status ?? .complete, entry.date ?? Date()))
                }
            }
            adoption.unreadable += orphan.tornLines
            // In this room's journal before the orphan goes: a kill in between replays them twice, harmlessly.
            do throws(ScoreStoreError) {
                try spool.append(operations.map(\.spoolEntry))
            } catch {
                orphan.release()
                throw error
            }
            orphan.remove()
            adoption.files += 1
            adopted += operations
        }
        ScoreSpool.syncDirectory(directory)
        state.withLock { $0.spool = spool }
        for operation in adopted { enqueue(operation, spooled: true) }
        return adoption
    }

    /// Tests: stops as a killed process would, leaving the spool file unlocked and unstored.
    func abandonAsIfKilled() {
        state.withLock { state in
            state.spool?.closeAsIfKilled()
            state.spool = nil
            state.pending = []
            state.writer = nil
        }
    }

    /// What `attachSpool` found and queued.
    public struct SpoolAdoption: Sendable, Equatable {
        public var path: String
        public var files = 0
        public var runs = 0
        public var lines = 0
        /// Entries that could not be replayed (a line cut short by the kill).
        public var unreadable = 0
        /// Journals of another store, left where they are.
        public var foreignFiles: [String] = []
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
            state.starts[run] = Begun(start: start, date: date)
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
        guard !(await flush(timeout: timeout)) else {
            // Nothing left to store: the journal goes (a run still going is begun again by its own key).
            state.withLock { $0.spool }?.remove()
            return
        }
        let (onDisk, lost, spool) = state.withLock { state in
            (state.pending.filter(\.spooled).map { Self.describe($0.operation, starts: state.starts) },
             state.pending.filter { !$0.spooled }.map { Self.describe($0.operation, starts: state.starts) }, state.spool)
        }
        if let spool, !onDisk.isEmpty { report(.spooled(path: spool.path, lines: onDisk)) }
        if !lost.isEmpty { report(.dropped(reason: "the server stopped while the database still refused them", lines: lost)) }
    }

    // MARK: Draining

    private func enqueue(_ operation: Operation, spooled: Bool = false) {
        let (start, overflow) = state.withLock { state -> (Bool, Operation?) in
            guard state.pending.count < capacity else { return (false, operation) }
            state.pending.append(Pending(operation: operation, spooled: spooled))
            if state.draining { return (false, nil) }
            state.draining = true
            return (true, nil)
        }
        if let overflow {
            let line = state.withLock { Self.describe(overflow, starts: $0.starts) }
            report(.dropped(reason: "\(capacity) writes already wait in memory", lines: [line]))
        }
        if start { Task.detached(executorPreference: executor) { [self] in await drain() } }
    }

    private func drain() async {
        var delay = initialDelay
        var failingSince: ContinuousClock.Instant?
        var writtenWhileFailing = 0
        while let (operation, writer) = next() {
            // On disk before the database sees it: a kill from here on loses nothing.
            spoolUnspooled()
            do throws(ScoreStoreError) {
                guard let writer else { throw ScoreStoreError.database(path: path, detail: "no database attached") }
                try await perform(operation, writer)
                state.withLock { _ = $0.pending.removeFirst() }
                compactSpoolIfDrained()
                if failingSince != nil { writtenWhileFailing += 1 }
                if state.withLock({ $0.pending.isEmpty }), let since = failingSince {
                    let seconds = Double((ContinuousClock.now - since).components.seconds)
                    report(.recovered(written: writtenWhileFailing, afterSeconds: seconds))
                    failingSince = nil
                    writtenWhileFailing = 0
                }
                delay = initialDelay
            } catch {
                if case .reopened = error {
                    // The database is another file now: the runs going are stored there again first.
                    storeRunsGoingAgain()
                    if failingSince == nil {
                        failingSince = .now
                        report(.failing(error, pending: pendingCount))
                    }
                    continue
                }
                if case .noSuchPerformance = error {
                    // Retrying cannot bring a deleted row back: say what is lost and go on.
                    let line = state.withLock { state in
                        Self.describe(state.pending.removeFirst().operation, starts: state.starts)
                    }
                    report(.dropped(reason: "\(error)", lines: [line]))
                    continue
                }
                if failingSince == nil {
                    failingSince = .now
                    report(.failing(error, pending: pendingCount))
                }
                // In slices: lines that arrive while the database is down reach the disk at once.
                let wake = ContinuousClock.now + .milliseconds(Int64(delay * 1000))
                while ContinuousClock.now < wake {
                    try? await Task.sleep(for: .milliseconds(20))
                    spoolUnspooled()
                }
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
            return (first.operation, state.writer)
        }
    }

    private func perform(_ operation: Operation, _ writer: any ScoreWriting) async throws(ScoreStoreError) {
        switch operation {
        case .begin(let run, let start, let date):
            guard state.withLock({ $0.ids[run] }) == nil else { return }
            let id = try await writer.begin(start, key: run.key, at: date)
            state.withLock { state in
                state.ids[run] = id
                if state.written[run] == nil { state.written[run] = [] }
                if state.written.count > Self.keptRuns, let oldest = state.written.keys.min(by: { $0.number < $1.number }) {
                    state.written[oldest] = nil
                }
            }
        case .record(let run, let line, let micLost):
            try await writer.record(line, performance: try id(of: run), micLost: micLost)
            state.withLock { state in
                state.written[run]?.removeAll { if case .record(_, let old, _) = $0 { old.lineIndex == line.lineIndex } else { false } }
                state.written[run]?.append(operation)
            }
        case .finish(let run, let total, let status, let date):
            try await writer.finish(try id(of: run), total: total, status: status, at: date)
            state.withLock { state in
                state.ids[run] = nil
                state.starts[run] = nil
                state.written[run] = nil
            }
        }
    }

    /// Runs whose stored lines are kept for `storeRunsGoingAgain` (8 seats, a few seeks each).
    static let keptRuns = 64

    /// After the store opened another file (`.reopened`): every run begun in the earlier file
    /// and not finished is begun again, with the lines it had stored, ahead of what waits (a run
    /// older than the `keptRuns` newest, long abandoned, only with what comes next). The store's
    /// writes are idempotent, so a file that already holds some of them (a backup put back)
    /// keeps each line once.
    private func storeRunsGoingAgain() {
        state.withLock { state in
            let begun = state.ids.keys.sorted { $0.number < $1.number }
            state.ids = [:]
            var again: [Pending] = []
            for run in begun {
                guard let start = state.starts[run] else { continue }
                again.append(Pending(operation: .begin(run, start.start, start.date), spooled: true))
                again += (state.written[run] ?? []).map { Pending(operation: $0, spooled: true) }
            }
            state.pending.insert(contentsOf: again, at: 0)
        }
    }

    private func id(of run: Run) throws(ScoreStoreError) -> Int64 {
        guard let id = state.withLock({ $0.ids[run] }) else { throw .database(path: path, detail: "the performance was not started") }
        return id
    }

    // MARK: Spool

    /// Appends the writes not yet on disk to the spool, in one `fsync`. Only the drain (or `close`
    /// after it gave up) calls this, and only the drain removes from the front, so the indices hold.
    private func spoolUnspooled() {
        let (spool, batch) = state.withLock { state -> (ScoreSpool?, [(Int, ScoreSpool.Entry)]) in
            guard let spool = state.spool else { return (nil, []) }
            return (spool, state.pending.enumerated().filter { !$0.element.spooled }.map { ($0.offset, $0.element.operation.spoolEntry) })
        }
        guard let spool, !batch.isEmpty else { return }
        do throws(ScoreStoreError) {
            try spool.append(batch.map(\.1))
            let wasFailing = state.withLock { state in
                for (index, _) in batch where index < state.pending.count { state.pending[index].spooled = true }
                defer { state.spoolFailing = false }
                return state.spoolFailing
            }
            if wasFailing { report(.spoolRecovered(path: spool.path)) }
        } catch {
            let first = state.withLock { state in
                defer { state.spoolFailing = true }
                return !state.spoolFailing
            }
            if first { report(.spoolFailing(error)) }
        }
    }

    /// Once everything is stored, the spool keeps only the begins of runs still going.
    private func compactSpoolIfDrained() {
        let (spool, begins) = state.withLock { state -> (ScoreSpool?, [ScoreSpool.Entry]) in
            guard let spool = state.spool, state.pending.isEmpty, !state.spoolFailing else { return (nil, []) }
            let begins = state.starts.sorted { $0.key.number < $1.key.number }.map { run, begun in
                Operation.begin(run, begun.start, begun.date).spoolEntry
            }
            return (spool, begins)
        }
        guard let spool else { return }
        do throws(ScoreStoreError) { try spool.compact(keeping: begins) } catch {
            state.withLock { $0.spoolFailing = true }
            report(.spoolFailing(error))
        }
    }

    private func report(_ report: ScoreWriteReport) {
        state.withLock { $0.reporter }?(report)
    }

    static func describe(_ operation: Operation, starts: [Run: Begun]) -> String {
        let who = starts[operation.run].map { "\($0.start.singer) in \($0.start.songId)" } ?? "a performance"
        switch operation {
        case .begin: return "start of \(who)"
        case .record(_, let line, _):
            return "\(who), line \(line.lineIndex + 1) \"\(line.text)\": \(Int((line.score + line.bonus).rounded())) points"
        case .finish(_, let total, let status, _): return "\(who) \(status.rawValue) with \(total) points"
        }
    }
}
