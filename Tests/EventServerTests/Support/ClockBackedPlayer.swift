import KaraokeRoom

/// A test player that keeps time with a `ClockPlayer` and replaces only what its test is about
/// (how a track is prepared, the output latency it reports).
protocol ClockBackedPlayer: RoomPlayer {
    var clock: ClockPlayer { get }
}

extension ClockBackedPlayer {
    func play() { clock.play() }
    func pause() { clock.pause() }
    func stop() { clock.stop() }
    func seek(to mediaSeconds: Double) { clock.seek(to: mediaSeconds) }
    func setKey(semitones: Int) { clock.setKey(semitones: semitones) }
    func setTempo(_ ratio: Double) { clock.setTempo(ratio) }
    func setLoop(_ range: ClosedRange<Double>?) { clock.setLoop(range) }
    var position: Double { clock.position }
    var isPlaying: Bool { clock.isPlaying }
    var outputLatency: Double? { clock.outputLatency }
}
