import Foundation
import KaraokeRoom
import Synchronization

/// A `RoomPlayer` whose `prepare` takes as long as the test says — a stand-in for a decode of
/// many seconds. It blocks until the test `open`s (or `fail`s) that track's gate, or, with
/// `honoursCancellation`, until the room supersedes the load. Playback is a real `ClockPlayer`,
/// which also installs the prepared track (its duration). It records which tracks started
/// preparing, were cancelled, and were installed, so tests can tell a dropped load from a played one.
final class GatedPlayer: ClockBackedPlayer {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private struct Books {
        var gates: [String: Failure?] = [:]
        var started: [String] = []
        var cancelled: [String] = []
        var installed: [String] = []
    }

    let clock = ClockPlayer()
    let honoursCancellation: Bool
    /// A gate nobody opens fails the load after this long instead of hanging the test run.
    let giveUpAfter: Double
    private let books = Mutex(Books())

    init(honoursCancellation: Bool = false, giveUpAfter: Double = 30) {
        self.honoursCancellation = honoursCancellation
        self.giveUpAfter = giveUpAfter
    }

    /// Lets the load of `path` finish.
    func open(_ path: String) { books.withLock { $0.gates[path] = .some(nil) } }
    /// Makes the load of `path` fail with `message` (the error names the file, as a decoder's does).
    func fail(_ path: String, _ message: String) { books.withLock { $0.gates[path] = Failure(description: "\(path): \(message)") } }

    var started: [String] { books.withLock { $0.started } }
    var cancelled: [String] { books.withLock { $0.cancelled } }
    var installed: [String] { books.withLock { $0.installed } }

    func prepare(backingTrack path: String?, duration: Double,
                 isCancelled: @escaping @Sendable () -> Bool) throws -> PreparedTrack {
        let key = path ?? ""
        books.withLock { $0.started.append(key) }
        let deadline = Date().addingTimeInterval(giveUpAfter)
        while true {
            if let gate = books.withLock({ $0.gates[key] }) {
                if let failure = gate { throw failure }
                break
            }
            if honoursCancellation && isCancelled() {
                books.withLock { $0.cancelled.append(key) }
                throw Failure(description: "\(key): cancelled")
            }
            if Date() > deadline { throw Failure(description: "\(key): the test never opened its gate") }
            Thread.sleep(forTimeInterval: 0.002)
        }
        let track = try clock.prepare(backingTrack: path, duration: duration, isCancelled: isCancelled)
        return PreparedTrack(duration: track.duration) { [self] in
            track.install()
            books.withLock { $0.installed.append(key) }
        }
    }

}
