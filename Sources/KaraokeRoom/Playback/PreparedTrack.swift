/// A song's audio made ready by `RoomPlayer.prepare` (decoded and resampled for a real
/// player) but not playing yet. `install()` swaps it into the player that made it, stopped at
/// 0 — cheap, so the room calls it on its queue. Dropping it unused just frees the audio.
public struct PreparedTrack: Sendable {
    /// Playable length in seconds.
    public let duration: Double
    /// What the room should tell the host about this audio (a MIDI song played without music
    /// because no soundfont is installed …).
    public let warnings: [String]
    private let swapIn: @Sendable () -> Void

    public init(duration: Double, warnings: [String] = [], install: @escaping @Sendable () -> Void) {
        self.duration = duration
        self.warnings = warnings
        swapIn = install
    }

    /// Makes this the player's track, stopped at 0 (key and tempo stay as set).
    public func install() { swapIn() }
}
