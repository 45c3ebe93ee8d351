/// What the room needs from whatever produces the sound (or, in `--no-audio` mode,
/// only keeps time). Implementations are thread-safe: the room calls them from its
/// own queue, the live pipeline reads `position` from its worker thread.
public protocol RoomPlayer: AnyObject, Sendable {
    /// Prepares a song; `path` nil means no backing track (clock only).
    func load(backingTrack path: String?, duration: Double) throws
    func play()
    func pause()
    /// Pauses and returns to the start.
    func stop()
    func seek(to mediaSeconds: Double)
    func setKey(semitones: Int)
    /// Playback speed ratio, 1 = original.
    func setTempo(_ ratio: Double)
    /// Loop between two media times; nil plays through.
    func setLoop(_ range: ClosedRange<Double>?)
    /// Media seconds being heard now.
    var position: Double { get }
    /// False when paused, stopped, or at the end of the song.
    var isPlaying: Bool { get }
}
