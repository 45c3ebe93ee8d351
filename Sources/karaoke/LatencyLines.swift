import AudioEngine
import Foundation
import KaraokeRoom
import RoomProtocol

/// `serve`'s start-up lines with the measured output latency and, per singer, the microphone's
/// input latency and the mic delay scoring uses (and where it comes from).
enum LatencyLines {
    static func lines(engine: PlaybackEngine, output: String?, live: LiveScoringFactory.Live?) -> [String] {
        let measured = firstReading { engine.outputLatency }.map { "output latency \(milliseconds($0))" }
        var lines = ["\(measured ?? "output latency not measured yet") on \(output ?? "the default sink")",
                     "playback thread: \(engine.playbackThreadPriority)"]
        guard let live else { return lines }
        for (singer, source) in live.sources.enumerated() {
            guard let first = live.session.microphone(singer: singer, seat: nil) else { continue }
            let input = firstReading { live.session.microphone(singer: singer, seat: nil)?.inputLatency } ?? first.inputLatency
            lines.append("singer \(singer + 1) on \(source ?? "the default source"): "
                         + "input latency \(input.map(milliseconds) ?? "not measured yet"), "
                         + "mic delay \(milliseconds(first.micDelay.seconds)) (\(origin(first.micDelay.source)))")
        }
        return lines
    }

    /// PulseAudio times a new stream within its first buffers; give it that long at most.
    private static func firstReading(timeout: Double = 1, _ read: () -> Double?) -> Double? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = read() { return value }
            if Date() > deadline { return nil }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// As `play` and `calibrate` print them.
    private static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    private static func origin(_ source: MicDelaySource) -> String {
        switch source {
        case .room: "room setting"
        case .calibrated: "calibrated"
        case .default: "default; calibrate from the remote"
        }
    }
}
