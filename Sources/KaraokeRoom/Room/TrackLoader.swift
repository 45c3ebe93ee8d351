import Dispatch
import Synchronization

/// Prepares songs' audio (`RoomPlayer.prepare`: a decode and resample, seconds of CPU) on its
/// own serial queue, so the room's queue never waits for one.
///
/// The newest load wins. Every `load` gets a higher generation and supersedes the ones before
/// it: a superseded job that has not started is skipped, a running one sees `isCancelled` turn
/// true (and may give up early), and whatever it still delivers is for an old generation, which
/// the room drops unplayed. One job runs at a time, so superseded decodes never compete with
/// the newest for the CPU.
final class TrackLoader: Sendable {
    typealias Completion = @Sendable (_ generation: Int, _ result: Result<PreparedTrack, any Error>) -> Void

    private let queue = DispatchQueue(label: "karaoke.room.loader", qos: .userInitiated)
    private let newest = Atomic<Int>(0)

    /// Starts preparing `path` for `player` and returns this load's generation. `completion`
    /// runs on the loader's queue when the job finishes; a job skipped because it was already
    /// superseded never calls it.
    func load(_ player: any RoomPlayer, backingTrack path: String?, duration: Double,
              completion: @escaping Completion) -> Int {
        let generation = newest.add(1, ordering: .acquiringAndReleasing).newValue
        queue.async { [self] in
            let isCancelled: @Sendable () -> Bool = { [self] in isSuperseded(generation) }
            guard !isCancelled() else { return }
            completion(generation, Result { try player.prepare(backingTrack: path, duration: duration, isCancelled: isCancelled) })
        }
        return generation
    }

    /// Supersedes every load so far (none of them should be installed any more).
    func cancelAll() {
        newest.add(1, ordering: .acquiringAndReleasing)
    }

    func isSuperseded(_ generation: Int) -> Bool {
        newest.load(ordering: .acquiring) != generation
    }
}
