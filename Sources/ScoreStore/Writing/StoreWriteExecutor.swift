import Dispatch

/// Runs the score write queue's drain on a serial dispatch queue of its own instead of the
/// cooperative pool. On a 2-core machine the pool has two threads; CPU-bound work that holds
/// them (seen: parallel scoring tests, for minutes) would otherwise delay both the writes and
/// the "scores are not being saved" report to the hosts. Writes are serial anyway.
final class StoreWriteExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = StoreWriteExecutor()
    private let queue = DispatchQueue(label: "karaoke.score-writes")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
