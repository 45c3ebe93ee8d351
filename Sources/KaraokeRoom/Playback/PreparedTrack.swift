/// A song's audio made ready by `RoomPlayer.prepare` (decoded and resampled for a real
/// player) but not playing yet. `install()` swaps it into the player that made it, stopped at
/// 0 — cheap, so the room calls it on its queue. Dropping it unused just frees the audio.
public struct PreparedTrack: Sendable {
    /// Playable length in seconds.
    public let duration: Double
    private let swapIn: @Sendable () -> Void

    public init(duration: Double, install: @escaping @Sendable () -> Void) {
        self.duration = duration
        swapIn = install
    }

    /// Makes this the player's track, stopped at 0 (key and tempo stay as set).
    public func install() { swapIn() }
}
