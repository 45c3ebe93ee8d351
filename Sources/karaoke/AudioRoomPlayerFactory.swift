import AudioEngine
import Foundation
import KaraokeRoom
import Logging

/// Builds the PulseAudio-backed `RoomPlayer`: an `AudioEngine.PlaybackEngine` on the sink named
/// by `KARAOKE_OUTPUT` (default: the server's default sink). Device loss is logged; the engine
/// pauses and reconnects by itself.
enum AudioRoomPlayerFactory {
    static func make(logger: Logger) throws -> any RoomPlayer {
        let device = ProcessInfo.processInfo.environment["KARAOKE_OUTPUT"].flatMap { $0.isEmpty ? nil : $0 }
        let engine: PlaybackEngine
        do {
            engine = try PlaybackEngine(configuration: .init(device: device))
        } catch {
            throw PlaybackError(path: nil, message: "cannot open audio output \(device ?? "(default sink)"): \(error) — run with --no-audio to drive lyric screens only")
        }
        engine.onDeviceEvent = { event in logger.warning("audio: \(event)") }
        return engine
    }
}
