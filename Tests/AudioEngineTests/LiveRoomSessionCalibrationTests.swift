@testable import AudioEngine
import EventServer
import Foundation
import KaraokeRoom
import RoomProtocol
import Synchronization
import TestSupport
import Testing

/// `LiveRoomSession.calibrate` as the room's `calibrate` command runs it in `serve`: the room's
/// own output stream stays open, the calibrator plays its clicks on the same sink, and the outcome
/// comes back through `done` — a measured delay the session then reports as `calibrated`, or the
/// calibrator's error.
extension PulseAudioTests {
@Suite struct LiveRoomSessionCalibrationTests {
    final class NullSink: RoomEventSink {
        func publishPitch(_ pitch: PitchPayload) {}
        func publishLineScore(_ score: LineScorePayload) {}
        func publishTotal(_ total: TotalPayload) {}
        func publishDevice(_ device: DevicePayload) {}
    }

    /// What `done` reported, once.
    final class Outcome: Sendable {
        private let result = Mutex<(finished: Bool, error: String?)>((false, nil))
        func finish(_ error: (any Error)?) { result.withLock { $0 = (true, error.map { "\($0)" }) } }
        var isFinished: Bool { result.withLock { $0.finished } }
        var error: String? { result.withLock { $0.error } }
    }

    /// A session scoring `source` (mono) while `serve`'s playback engine holds the speaker.
    final class Fixture {
        let engine: PlaybackEngine
        let capture: CaptureEngine
        let live: LiveRoomSession
        let calibrationPath = FileManager.default.temporaryDirectory.path + "/karaoke-room-calibration-\(UUID().uuidString).json"

        init(source: String) throws {
            engine = try PlaybackEngine(configuration: .init(device: "speaker"))
            capture = try CaptureEngine(configuration: .init(source: source))
            var options = LiveRoomSession.Options()
            options.output = "speaker"
            options.calibrationPath = calibrationPath
            options.defaultMicDelay = 0.14
            live = LiveRoomSession(microphones: LiveMicrophone.all(of: capture, source: source), clock: engine.clock,
                                   sink: NullSink(), store: nil, options: options)
        }

        func calibrate() throws -> Outcome {
            let outcome = Outcome()
            try live.calibrate(singer: 0) { outcome.finish($0) }
            #expect(waitUntil(timeout: 20) { outcome.isFinished }, "calibration never finished")
            return outcome
        }

        func close() {
            live.close()
            capture.close()
            engine.close()
            try? FileManager.default.removeItem(atPath: calibrationPath)
        }
    }

    /// The speaker's monitor hears each click the moment it is played: a delay near 0, stored,
    /// reported as `calibrated`, and still overridden by a room setting.
    @Test func calibrationIsUsedSavedAndReported() throws {
        let fixture = try Fixture(source: "speaker.monitor")
        defer { fixture.close() }
        let before = try #require(fixture.live.microphone(singer: 0, seat: nil))
        #expect(before.micDelay == EffectiveMicDelay(seconds: 0.14, source: .default))
        #expect(fixture.live.microphone(singer: 1, seat: nil) == nil, "one mono microphone, one singer")

        let outcome = try fixture.calibrate()
        #expect(outcome.error == nil)
        let after = try #require(fixture.live.microphone(singer: 0, seat: nil))
        print("room calibration of speaker.monitor: mic delay \(after.micDelay.seconds * 1000) ms, input latency \((after.inputLatency ?? -1) * 1000) ms")
        #expect(after.micDelay.source == .calibrated)
        #expect(abs(after.micDelay.seconds) < 0.03, "delay \(after.micDelay.seconds)")
        #expect(try CalibrationStore.load(path: fixture.calibrationPath).inputs["speaker.monitor"]?.delaySeconds == after.micDelay.seconds)
        let seat = SingerPayload(singer: 0, name: "A", part: 0, micDelayMs: 90)
        #expect(fixture.live.microphone(singer: 0, seat: seat)?.micDelay == EffectiveMicDelay(seconds: 0.09, source: .room))
    }

    /// Nothing plays into `mic2`: the calibrator's error reaches `done`, and the default stays.
    @Test func aFailedCalibrationIsReportedAndChangesNothing() throws {
        let fixture = try Fixture(source: "mic2")
        defer { fixture.close() }
        let outcome = try fixture.calibrate()
        let error = try #require(outcome.error)
        #expect(error.contains("no calibration clicks arrived at input 'mic2'"), "\(error)")
        #expect(fixture.live.microphone(singer: 0, seat: nil)?.micDelay == EffectiveMicDelay(seconds: 0.14, source: .default))
        #expect(FileManager.default.fileExists(atPath: fixture.calibrationPath) == false)
        #expect(throws: (any Error).self) { try fixture.live.calibrate(singer: 3) { _ in } }
    }
}
}

extension PulseAudioTests.LiveRoomSessionCalibrationTests {
    /// A calibration file that cannot be read holds other microphones' delays: it is left as it
    /// is, the new delay is used anyway, and `done` says it was not kept.
    @Test func anUnreadableCalibrationFileIsReportedNotOverwritten() throws {
        let fixture = try Fixture(source: "speaker.monitor")
        defer { fixture.close() }
        let damaged = Data("{\"inputs\": {\"usb-mic\": {\"delaySeconds\": 0.05".utf8)
        try damaged.write(to: URL(fileURLWithPath: fixture.calibrationPath))
        let outcome = try fixture.calibrate()
        let error = try #require(outcome.error)
        #expect(error.contains("using it, but could not keep it") && error.contains("not a calibration file"), "\(error)")
        #expect(fixture.live.microphone(singer: 0, seat: nil)?.micDelay.source == .calibrated)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.calibrationPath)) == damaged)
    }
}
