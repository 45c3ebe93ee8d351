@testable import AudioEngine
import Foundation
import Testing

extension PulseAudioTests {
@Suite struct PulseCalibrationTests {
    /// CI has no acoustic path, so a `module-loopback` (speaker.monitor → mic_sink, 30 ms)
    /// makes a real one; the calibrator must find its delay.
    @Test func calibratorMeasuresLoopbackDelay() throws {
        let module = try pactl(["load-module", "module-loopback", "source=speaker.monitor", "sink=mic_sink", "latency_msec=30"])
        defer { _ = try? pactl(["unload-module", module]) }
        let calibrator = LatencyCalibrator(output: "speaker", inputs: ["mic"])
        calibrator.clicks = 6
        let results = try calibrator.run()
        let mic = try #require(results["mic"])
        #expect(mic.clicks >= 5)
        #expect(mic.delaySeconds > 0.01 && mic.delaySeconds < 0.08, "delay \(mic.delaySeconds)")
        #expect(mic.spreadSeconds < 0.01, "spread \(mic.spreadSeconds)")

        let path = FileManager.default.temporaryDirectory.path + "/karaoke-calibration-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var store = CalibrationStore()
        store.inputs = results
        try store.save(path: path)
        #expect(try CalibrationStore.load(path: path).delay(for: "mic") == mic.delaySeconds)
    }

    /// A path longer than the old clicks' period (0.5 s) is measured whole through a real
    /// loopback, and the run ends once every click is in, not 2 s after the last one.
    @Test func calibratorMeasuresALongLoopbackWhole() throws {
        let module = try pactl(["load-module", "module-loopback", "source=speaker.monitor", "sink=mic_sink", "latency_msec=800"])
        defer { _ = try? pactl(["unload-module", module]) }
        let calibrator = LatencyCalibrator(output: "speaker", inputs: ["mic"])
        let started = Date()
        let mic = try #require(try calibrator.run()["mic"])
        let took = Date().timeIntervalSince(started)
        #expect(mic.clicks == 8)
        #expect(abs(mic.delaySeconds - 0.8) < 0.04, "delay \(mic.delaySeconds)")
        #expect(took < calibrator.schedule.duration - 0.5, "took \(took) s of a \(calibrator.schedule.duration) s track")
    }

    @Test func calibratorReportsSilentInput() throws {
        let calibrator = LatencyCalibrator(output: "speaker", inputs: ["mic2"])
        calibrator.clicks = 2
        #expect(throws: CalibrationError.self) { try calibrator.run() }
    }

    @Test func micMonitorRoutesMicToSpeakerAndStops() throws {
        let path = try TestSignals.writeTemp(TestSignals.sine(392, seconds: 6), name: "g4.wav")
        let singer = try PlaybackEngine(configuration: .init(device: "mic_sink"))
        defer { singer.close() }
        try singer.load(backingTrack: path, duration: 0)
        singer.play()
        let recorder = try MonitorRecorder(source: "speaker.monitor")
        defer { recorder.close() }
        let monitor = try MicMonitor()
        try monitor.enable(source: "mic", sink: "speaker", latency: 0.02)
        #expect(monitor.isEnabled(source: "mic"))
        Thread.sleep(forTimeInterval: 0.5)
        recorder.clear()
        recorder.record(for: 0.8)
        let f = try #require(TestSignals.medianFrequency(recorder.samples))
        #expect(abs(f - 392) < 1.5, "monitored \(f) Hz")
        monitor.disable(source: "mic")
        Thread.sleep(forTimeInterval: 0.3)
        recorder.clear()
        recorder.record(for: 0.4)
        #expect(TestSignals.rms(recorder.samples[...]) < 0.001)
        #expect(throws: PulseError.self) { try monitor.enable(source: "mic sink=evil") }
    }
}
}
