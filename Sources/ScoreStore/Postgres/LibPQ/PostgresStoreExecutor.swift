import Dispatch

/// The thread a `PostgresScoreStore` runs on: a serial dispatch queue of its own, since libpq's
/// calls block. The cooperative pool (two threads on a 2-core machine, often held by the pitch
/// analysis) is never blocked by a slow or unreachable database.
final class PostgresStoreExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "karaoke.store.postgres")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}
