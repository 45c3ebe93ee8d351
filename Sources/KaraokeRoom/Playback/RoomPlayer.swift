/// What the room needs from whatever produces the sound (or, in `--no-audio` mode,
/// only keeps time). Implementations are thread-safe: the room calls them from its
/// own queue and its loader thread, the live pipeline reads `position` from its worker thread.
public protocol RoomPlayer: AnyObject, Sendable {
    /// The slow half of loading a song: decodes and prepares its audio (`path` nil = no backing
    /// track, clock only) without changing what plays now. Called on the room's loader thread,
    /// possibly while the player plays. `isCancelled` turns true once a newer load superseded
    /// this one; a long decode should ask it now and then and give up (throw) when it does.
    /// Throws a message naming the file when the audio cannot be read.
    func prepare(backingTrack path: String?, duration: Double,
                 isCancelled: @escaping @Sendable () -> Bool) throws -> PreparedTrack
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
    /// Centre-channel cancellation of the track (the room asks only for full-mix backings).
    func setVocalReduction(_ on: Bool)
    /// Media seconds being heard now.
    var position: Double { get }
    /// False when paused, stopped, or at the end of the song.
    var isPlaying: Bool { get }
    /// Measured output latency, seconds: how long a rendered sample takes to be heard, from the
    /// sound server's timing of the stream; nil when nothing is measured (no audio, no stream).
    /// Read on the room's queue for every `state`: it may take a lock briefly, never wait on the server.
    var outputLatency: Double? { get }
}

extension RoomPlayer {
    /// Players without audio (`--no-audio`, test doubles) have nothing to reduce.
    public func setVocalReduction(_ on: Bool) {}

    /// Prepares and installs a song's audio on the caller's thread, stopped at 0 (tools, tests;
    /// the room prepares on its loader thread instead, see `TrackLoader`).
    public func load(backingTrack path: String?, duration: Double) throws {
        try prepare(backingTrack: path, duration: duration, isCancelled: { false }).install()
    }
}
