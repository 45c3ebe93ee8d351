import KaraokeRoom
import Logging

/// Builds the PulseAudio-backed `RoomPlayer`. The PlaybackEngine adapter lives in
/// `KaraokeRoom/Audio/` (audio branch); until it is merged, serving with audio is refused
/// with a clear message instead of pretending to play.
enum AudioRoomPlayerFactory {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String {
            "audio playback is not available in this build yet; run `karaoke serve --no-audio` to drive lyric screens only"
        }
    }

    static func make(logger: Logger) throws -> any RoomPlayer {
        throw Unavailable()
    }
}
