import Dispatch
import Synchronization

/// The current song's audio while `TrackLoader` prepares it (room queue only). The song is
/// already the room's current song (lyrics shown, `state.loading` true); the player still holds
/// the previous track, stopped.
struct PendingLoad {
    /// The loader's generation; a prepared track for any other generation is dropped.
    let generation: Int
    let songId: String
    /// Start playing as soon as it is installed (`play`, `next`, `previous`, `playNow`, the queue
    /// moving on); `pause` and `stop` clear it.
    var playWhenLoaded = false
    /// `Room.load(songId:)` callers waiting for the outcome.
    var waiters: [LoadWaiter] = []

    /// Tells every waiter how it ended: nil when installed or superseded, else why it failed.
    func resolve(_ error: (any Error)?) {
        for waiter in waiters { waiter.resolve(error) }
    }
}

/// A caller blocked (off the room's queue) until a load has finished.
final class LoadWaiter: Sendable {
    private let outcome = Mutex<(any Error)??>(nil)
    private let done = DispatchSemaphore(value: 0)

    func resolve(_ error: (any Error)?) {
        let first = outcome.withLock { stored in
            guard stored == nil else { return false }
            stored = .some(error)
            return true
        }
        if first { done.signal() }
    }

    /// Blocks until `resolve`, then throws what it was given.
    func wait() throws {
        done.wait()
        if let error = outcome.withLock({ $0 }) ?? nil { throw error }
    }
}
