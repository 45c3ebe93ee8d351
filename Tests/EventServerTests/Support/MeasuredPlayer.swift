import KaraokeRoom
import Synchronization

/// A `ClockPlayer` that reports an output latency the test sets, as a sound server's timing would.
final class MeasuredPlayer: ClockBackedPlayer {
    let clock = ClockPlayer()
    private let latency: Mutex<Double?>

    init(outputLatency: Double?) { latency = Mutex(outputLatency) }

    func setOutputLatency(_ seconds: Double?) { latency.withLock { $0 = seconds } }

    func prepare(backingTrack path: String?, duration: Double,
                 isCancelled: @escaping @Sendable () -> Bool) throws -> PreparedTrack {
        try clock.prepare(backingTrack: path, duration: duration, isCancelled: isCancelled)
    }
    var outputLatency: Double? { latency.withLock { $0 } }
}
