import ArgumentParser
import AudioEngine
import Foundation

/// `karaoke play`: plays an audio file through the engine (device check, key/tempo preview,
/// and the CPU benchmark in docs/audio-engine.md).
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an audio file through PulseAudio with optional key and tempo change.")

    @Argument(help: "Audio file (WAV, FLAC, OGG, … whatever libsndfile reads).")
    var file: String

    @Option(help: "Output sink (default: the server's default sink).")
    var output: String?

    @Option(help: "Key change in semitones (−24…24).")
    var key: Int = 0

    @Option(help: "Tempo factor (0.5…1.5).")
    var tempo: Double = 1

    @Option(help: "Start at this media time (seconds).")
    var start: Double = 0

    @Option(help: "Stop after this many seconds of wall time (default: play to the end).")
    var seconds: Double?

    func validate() throws {
        guard PlaybackEngine.keyRange.contains(key) else { throw ValidationError("--key must be −24…24") }
        guard PlaybackEngine.tempoRange.contains(tempo) else { throw ValidationError("--tempo must be 0.5…1.5") }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    func run() throws {
        let engine: PlaybackEngine
        do {
            engine = try PlaybackEngine(configuration: .init(device: output))
            try engine.load(backingTrack: file, duration: 0)
        } catch {
            throw Failure(description: "\(error)")
        }
        defer { engine.close() }
        engine.onDeviceEvent = { print("audio: \($0)"); fflush(nil) }
        engine.setKey(semitones: key)
        engine.setTempo(tempo)
        if start > 0 { engine.seek(to: start) }
        engine.play()
        let began = Date()
        var lastPrint = began
        while engine.isPlaying || engine.state == .paused {
            Thread.sleep(forTimeInterval: 0.05)
            if let seconds, Date().timeIntervalSince(began) >= seconds { break }
            if Date().timeIntervalSince(lastPrint) >= 5 {
                lastPrint = Date()
                print(String(format: "position %.3f s", engine.position))
                fflush(nil)
            }
        }
        let latency = engine.outputLatency.map { String(format: "%.1f ms", $0 * 1000) } ?? "unknown"
        print(String(format: "played %.3f s of %.3f s in %.3f s (output latency %@)",
                     engine.position, engine.duration, Date().timeIntervalSince(began), latency))
    }
}
