@testable import AudioEngine
import AudioFiles
import Foundation
import Testing
import TestSupport

extension PulseAudioTests {
@Suite struct PulseCaptureAndDeviceTests {
    /// Reads `seconds` of one capture channel, with the capture time of its first sample.
    func collect(_ channel: CaptureChannel, seconds: Double) -> (samples: [Float], firstTime: Double?) {
        var reader = channel.makeReader()
        let recorded = reader.record(seconds: seconds)
        return (recorded.samples, recorded.stamps.first?.time)
    }

    @Test func toneIntoMicSinkArrivesInTheRing() throws {
        let path = try TestSignals.writeTemp(TestSignals.sine(587.33, seconds: 4), name: "d5.wav")
        let singer = try PlaybackEngine(configuration: .init(device: "mic_sink"))
        defer { singer.close() }
        let capture = try CaptureEngine(configuration: .init(source: "mic"))
        defer { capture.close() }
        #expect(capture.channels.count == 1)
        try singer.load(backingTrack: path, duration: 0)
        singer.play()
        Thread.sleep(forTimeInterval: 0.3)
        _ = capture.channels[0].samples.skip(Int.max)
        let before = HostClock.now()
        let (samples, firstTime) = collect(capture.channels[0], seconds: 1.0)
        #expect(samples.count > 40_000)
        let f = try #require(TestSignals.medianFrequency(samples))
        #expect(abs(f - 587.33) < 1.5, "captured \(f) Hz")
        // The first sample was captured shortly before we read it, not in the future.
        let t = try #require(firstTime)
        #expect(t > before - 0.2 && t < before + 0.1, "stamp \(t) vs read start \(before)")
        let latency = try #require(capture.inputLatency)
        #expect(latency >= 0 && latency < 0.2)
        #expect(capture.channels[0].overruns == 0)
    }

    @Test func stereoSourceGivesOneSingerPerChannel() throws {
        let n = 4 * 48_000
        let l = TestSignals.sine(330, seconds: 4), r = TestSignals.sine(660, seconds: 4)
        var interleaved = [Float](repeating: 0, count: 2 * n)
        for i in 0..<n { interleaved[2 * i] = l[i]; interleaved[2 * i + 1] = r[i] }
        let dir = FileManager.default.temporaryDirectory.path
        let path = dir + "/karaoke-duet-\(getpid()).wav"
        try AudioFile.write(AudioBuffer(samples: interleaved, sampleRate: 48_000, channels: 2), to: path, format: .wavFloat)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let singers = try PlaybackEngine(configuration: .init(device: "mic2_sink"))
        defer { singers.close() }
        let capture = try CaptureEngine(configuration: .init(source: "mic2", layout: .channelsAsSingers))
        defer { capture.close() }
        #expect(capture.channels.count == 2)
        try singers.load(backingTrack: path, duration: 0)
        singers.play()
        Thread.sleep(forTimeInterval: 0.3)
        for c in capture.channels { _ = c.samples.skip(Int.max) }
        Thread.sleep(forTimeInterval: 0.8)
        var found: [Double] = []
        for c in capture.channels {
            var buffer = [Float](repeating: 0, count: c.samples.availableToRead)
            let got = buffer.withUnsafeMutableBufferPointer { c.samples.read(into: $0) }
            found.append(TestSignals.medianFrequency(Array(buffer[0..<got])) ?? 0)
        }
        #expect(abs(found[0] - 330) < 1.5 && abs(found[1] - 660) < 1.5, "singers heard \(found)")
    }

    @Test func unloadedSinkPausesAndReportsThenRecovers() throws {
        let index = try pactl(["load-module", "module-null-sink", "sink_name=lossy", "rate=48000", "channels=2"])
        let path = try TestSignals.writeTemp(TestSignals.sine(440, seconds: 20), name: "lossy.wav")
        let engine = try PlaybackEngine(configuration: .init(device: "lossy"))
        defer { engine.close() }
        let events = EventLog<DeviceEvent>()
        engine.onDeviceEvent = { events.append($0) }
        try engine.load(backingTrack: path, duration: 0)
        engine.play()
        // Nobody records lossy.monitor: the idle null sink may first sit out a 2 s block.
        #expect(waitUntil(timeout: 4) { engine.position > 0.2 })
        let heard = engine.position
        try pactl(["unload-module", index])
        #expect(events.wait(timeout: 3) { $0 == .outputLost(device: "lossy") }, "events: \(events.all)")
        #expect(!engine.isPlaying)
        let pausedAt = engine.position
        #expect(pausedAt >= heard - 0.01 && pausedAt < heard + 0.3, "paused at \(pausedAt), heard \(heard)")
        let again = try pactl(["load-module", "module-null-sink", "sink_name=lossy", "rate=48000", "channels=2"])
        defer { _ = try? pactl(["unload-module", again]) }
        #expect(events.wait(timeout: 5) { $0 == .outputRestored(device: "lossy") }, "events: \(events.all)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(abs(engine.position - pausedAt) < 0.01, "position after reconnect \(engine.position)")
        engine.play()
        #expect(waitUntil(timeout: 4) { engine.position > pausedAt + 0.2 }, "resumed to \(engine.position)")
    }

    @Test func killedServerPausesAndReconnectsWhenBack() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        var config = PlaybackEngine.Configuration(device: "out")
        config.server = daemon.server
        let path = try TestSignals.writeTemp(TestSignals.sine(440, seconds: 20), name: "killed.wav")
        let engine = try PlaybackEngine(configuration: config)
        defer { engine.close() }
        let events = EventLog<DeviceEvent>()
        engine.onDeviceEvent = { events.append($0) }
        try engine.load(backingTrack: path, duration: 0)
        engine.play()
        Thread.sleep(forTimeInterval: 0.5)
        daemon.kill()
        #expect(events.wait(timeout: 3) { $0 == .serverLost }, "events: \(events.all)")
        #expect(!engine.isPlaying)
        // Control calls while the server is gone neither crash nor block.
        engine.seek(to: 3)
        #expect(engine.position == 3)
        try daemon.start()
        #expect(events.wait(timeout: 5) { $0 == .outputRestored(device: "out") }, "events: \(events.all)")
        engine.play()
        // A fresh idle null sink may first sit out its 2 s block (shared/guides/platform.md §4).
        #expect(waitUntil(timeout: 4) { engine.position > 3.1 }, "resumed to \(engine.position)")
        #expect(engine.position < 7, "resumed to \(engine.position)")
    }
}
}
