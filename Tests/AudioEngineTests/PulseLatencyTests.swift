@testable import AudioEngine
import Foundation
import PitchDetection
import Testing

extension PulseAudioTests {
@Suite struct PulseLatencyTests {
    /// Glass-to-pitch: a tone starts in `mic_sink`; from its first sample entering the `mic`
    /// source (capture stamp) to our PitchDetector emitting a voiced frame for it.
    @Test func glassToPitchLatency() throws {
        var tone = [Float](repeating: 0, count: 48_000)
        tone += TestSignals.sine(440, seconds: 1.5)
        let singer = try PlaybackEngine(configuration: .init(device: "mic_sink"))
        defer { singer.close() }
        singer.load(track: TrackSource(left: tone, right: tone, sampleRate: singer.sampleRate))
        let capture = try CaptureEngine(configuration: .init(source: "mic"))
        defer { capture.close() }
        var reader = capture.channels[0].makeReader()
        let detector = PitchDetector(sampleRate: 48_000)
        var buffer = [Float](repeating: 0, count: 4096)
        singer.play()
        var onsetHost: Double?
        var latencies: [Double] = []
        var voicedSeen = false
        let end = Date().addingTimeInterval(3)
        while Date() < end && !voicedSeen {
            Thread.sleep(forTimeInterval: 0.002)
            while true {
                let start = reader.nextFrame
                let (n, _) = buffer.withUnsafeMutableBufferPointer { reader.read(into: $0) }
                if n == 0 { break }
                if onsetHost == nil, let i = buffer[0..<n].firstIndex(where: { abs($0) > 0.05 }) {
                    onsetHost = reader.hostTime(ofFrame: start + Int64(i))
                }
                buffer.withUnsafeBufferPointer { b in
                    detector.process(UnsafeBufferPointer(rebasing: b[0..<n])) { frame in
                        if frame.isVoiced, !voicedSeen, let onsetHost {
                            voicedSeen = true
                            latencies.append(HostClock.now() - onsetHost)
                        }
                    }
                }
            }
        }
        let latency = try #require(latencies.first)
        print(String(format: "glass-to-pitch %.1f ms (detector lookahead %.1f ms, hop %.1f ms, input latency %.1f ms)",
                     latency * 1000, detector.lookaheadSeconds * 1000, detector.hopSeconds * 1000, (capture.inputLatency ?? 0) * 1000))
        #expect(latency > 0 && latency < 0.25)
    }
}
}
