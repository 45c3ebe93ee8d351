import KaraokeRoom
import Synchronization

/// A `ClockPlayer` that reports an output latency the test sets, as a sound server's timing would.
final class MeasuredPlayer: RoomPlayer {
    let clock = ClockPlayer()
    private let latency: Mutex<Double?>

    init(outputLatency: Double?) { latency = Mutex(outputLatency) }

    func setOutputLatency(_ seconds: Double?) { latency.withLock { $0 = seconds } }

    func prepare(backingTrack path: String?, duration: Double,
                 isCancelled: @escaping @Sendable () -> Bool) throws -> PreparedTrack {
        try clock.prepare(backingTrack: path, duration: duration, isCancelled: isCancelled)
    }
    func play() { clock.play() }
    func pause() { clock.pause() }
    func stop() { clock.stop() }
    func seek(to mediaSeconds: Double) { clock.seek(to: mediaSeconds) }
    func setKey(semitones: Int) { clock.setKey(semitones: semitones) }
    func setTempo(_ ratio: Double) { clock.setTempo(ratio) }
    func setLoop(_ range: ClosedRange<Double>?) { clock.setLoop(range) }
    var position: Double { clock.position }
    var isPlaying: Bool { clock.isPlaying }
    var outputLatency: Double? { latency.withLock { $0 } }
}
