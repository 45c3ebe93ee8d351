import AudioEngine
import AudioFiles
import Foundation
import KaraokeRoom
import Testing
import TestSupport

extension PulseAudioTests {
/// The room's mic monitoring on the real adapter (`MicMonitor` as `RoomMonitor`): what it
/// loads on the sound server, and what the speakers then carry.
@Suite struct PulseMonitorTests {
    /// `pactl list short modules` rows of module-loopback (on the shared daemon, or `server`).
    private static func loopbacks(server: String? = nil) throws -> [String] {
        try pactl(["list", "short", "modules"], server: server).split(separator: "\n").map(String.init).filter { $0.contains("module-loopback") }
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
        #expect((0...2).allSatisfy { monitoring.status(singer: $0) == .heard })
        monitoring.close()
        #expect(try Self.loopbacks().isEmpty)
        #expect((0...2).allSatisfy { monitoring.status(singer: $0) == .off })
    }

    @Test func loadFailureIsReportedAndLeavesNothing() throws {
        let monitoring = SingerMonitoring(monitor: try MicMonitor(), sources: ["no_such_mic"], sink: "speaker", latency: 0.02)
        let failures = monitoring.setAll(on: true)
        #expect(failures.count == 1 && failures[0].hasPrefix("no_such_mic: "), "\(failures)")
        #expect(monitoring.status(singer: 0) == .off)
        #expect(try Self.loopbacks().isEmpty)
    }

    /// Monitors `source` on `sink` while the temporary device `device` (a null sink that is
    /// one of them, or provides the source as its monitor) is unloaded and loaded again.
    private func followLoss(of device: String, channels: Int, source: String, sink: String) throws {
        try #require(try Self.loopbacks().isEmpty, "a loopback was left behind before this test")
        let arguments = ["load-module", "module-null-sink", "sink_name=\(device)", "rate=48000", "channels=\(channels)"]
        var module = try pactl(arguments)
        defer { _ = try? pactl(["unload-module", module]) }
        let monitoring = SingerMonitoring(monitor: try MicMonitor(), sources: [source], sink: sink, latency: 0.02)
        defer { monitoring.close() }
        let changes = EventLog<MonitorStatus>()
        monitoring.observe { _, status in changes.append(status) }
        #expect(monitoring.setAll(on: true).isEmpty)
        #expect(try Self.loopbacks().count == 1)

        try pactl(["unload-module", module])
        #expect(waitUntil(timeout: 3) { monitoring.status(singer: 0) == .waiting }, "status \(String(describing: monitoring.status(singer: 0)))")
        #expect(try Self.loopbacks().isEmpty, "PulseAudio unloads the loopback with its device")

        module = try pactl(arguments)
        #expect(waitUntil(timeout: 3) { monitoring.status(singer: 0) == .heard }, "status \(String(describing: monitoring.status(singer: 0)))")
        let loaded = try Self.loopbacks()
        #expect(loaded.count == 1 && loaded[0].contains("source=\(source) ") && loaded[0].contains("sink=\(sink) "), "\(loaded)")
        #expect(changes.all == [.waiting, .heard])
        monitoring.close()
        #expect(try Self.loopbacks().isEmpty)
    }

    @Test func vanishedMicrophoneIsHeardAgainWhenItReturns() throws {
        try followLoss(of: "vanishing_mic", channels: 1, source: "vanishing_mic.monitor", sink: "speaker")
    }

    @Test func vanishedSpeakersCarryTheMicrophoneAgainWhenTheyReturn() throws {
        try followLoss(of: "vanishing_speaker", channels: 2, source: "mic", sink: "vanishing_speaker")
    }

    /// Every loopback goes with a killed server; a new one gets them back.
    @Test func restartedServerGetsItsLoopbacksBack() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        let monitor = try MicMonitor(server: daemon.server)
        let monitoring = SingerMonitoring(monitor: monitor, sources: ["mic.monitor"], sink: "out", latency: 0.02)
        defer { monitoring.close() }
        #expect(monitoring.setAll(on: true).isEmpty)
        #expect(try Self.loopbacks(server: daemon.server).count == 1)

        daemon.kill()
        #expect(waitUntil(timeout: 3) { monitoring.status(singer: 0) == .waiting })
        // While the server is gone, switching on fails at once instead of hanging.
        let asked = Date()
        #expect(throws: PulseError.self) { try monitor.enable(source: "out.monitor", sink: "out", latency: 0.02) }
        #expect(Date().timeIntervalSince(asked) < 1)
        #expect(!monitor.isEnabled(source: "out.monitor"))

        try daemon.start()
        #expect(waitUntil(timeout: 5) { monitoring.status(singer: 0) == .heard }, "status \(String(describing: monitoring.status(singer: 0)))")
        let loaded = try Self.loopbacks(server: daemon.server)
        #expect(loaded.count == 1 && loaded[0].contains("source=mic.monitor ") && loaded[0].contains("sink=out "), "\(loaded)")
        monitoring.close()
        #expect(try Self.loopbacks(server: daemon.server).isEmpty)
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
