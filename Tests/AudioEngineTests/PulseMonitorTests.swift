import AudioEngine
import AudioFiles
import Foundation
import KaraokeRoom
import Testing

extension PulseAudioTests {
/// The room's mic monitoring on the real adapter (`MicMonitor` as `RoomMonitor`): what it
/// loads on the sound server, and what the speakers then carry.
@Suite struct PulseMonitorTests {
    /// `pactl list short modules` rows of module-loopback.
    private static func loopbacks() throws -> [String] {
        try pactl(["list", "short", "modules"]).split(separator: "\n").map(String.init).filter { $0.contains("module-loopback") }
    }

    @Test func oneLoopbackPerSourceIsLoadedAndUnloaded() throws {
        try #require(try Self.loopbacks().isEmpty, "a loopback was left behind before this test")
        // Split mode: a stereo source carries singers 0 and 1; singer 2 is on the default source.
        let monitoring = SingerMonitoring(monitor: try MicMonitor(), sources: ["mic2", "mic2", "@DEFAULT_SOURCE@"],
                                          sink: "speaker", latency: 0.02)
        defer { monitoring.close() }
        #expect(monitoring.setAll(on: true).isEmpty)
        let loaded = try Self.loopbacks()
        #expect(loaded.count == 2, "\(loaded)")
        #expect(loaded.contains { $0.contains("source=mic2 ") && $0.contains("sink=speaker") && $0.contains("latency_msec=20") })
        #expect(loaded.contains { $0.contains("source=@DEFAULT_SOURCE@ ") })
        #expect((0...2).allSatisfy { monitoring.isMonitored(singer: $0) == true })
        monitoring.close()
        #expect(try Self.loopbacks().isEmpty)
        #expect((0...2).allSatisfy { monitoring.isMonitored(singer: $0) == false })
    }

    @Test func loadFailureIsReportedAndLeavesNothing() throws {
        let monitoring = SingerMonitoring(monitor: try MicMonitor(), sources: ["no_such_mic"], sink: "speaker", latency: 0.02)
        let failures = monitoring.setAll(on: true)
        #expect(failures.count == 1 && failures[0].hasPrefix("no_such_mic: "), "\(failures)")
        #expect(monitoring.isMonitored(singer: 0) == false)
        #expect(try Self.loopbacks().isEmpty)
    }

    /// A singer on the left channel of a stereo microphone is heard on both speakers.
    @Test func stereoMicrophoneIsHeardOnBothSpeakers() throws {
        let tone = TestSignals.sine(392, seconds: 6)
        var leftOnly = [Float](repeating: 0, count: tone.count * 2)
        for (i, sample) in tone.enumerated() { leftOnly[2 * i] = sample }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-left-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AudioFile.write(AudioBuffer(samples: leftOnly, sampleRate: TestSignals.rate, channels: 2), to: path, format: .wavFloat)
        let singer = try PlaybackEngine(configuration: .init(device: "mic2_sink"))
        defer { singer.close() }
        try singer.load(backingTrack: path, duration: 0)
        singer.play()
        let speakers = try CaptureEngine(configuration: .init(source: "speaker.monitor", layout: .channelsAsSingers))
        defer { speakers.close() }
        let monitoring = SingerMonitoring(monitor: try MicMonitor(), sources: ["mic2", "mic2"], sink: "speaker", latency: 0.02)
        defer { monitoring.close() }
        #expect(monitoring.setAll(on: true).isEmpty)
        Thread.sleep(forTimeInterval: 0.6)
        for channel in speakers.channels { _ = channel.samples.skip(Int.max) }
        Thread.sleep(forTimeInterval: 0.8)
        let heard = speakers.channels.map { channel in
            var buffer = [Float](repeating: 0, count: channel.samples.availableToRead)
            let count = buffer.withUnsafeMutableBufferPointer { channel.samples.read(into: $0) }
            return TestSignals.medianFrequency(Array(buffer[0..<count])) ?? 0
        }
        #expect(heard.count == 2 && heard.allSatisfy { abs($0 - 392) < 1.5 }, "speakers heard \(heard)")
    }
}
}
