@testable import AudioEngine
import Foundation
@testable import KaraokeRoom
import RoomProtocol
import TestSupport
import Testing

/// A calibrated phone whose capture path grew during a song (a stall of the box, a browser's
/// buffering: the backing in its own stream arrives later than after its calibration) is scored
/// where its audio now is, not on the calibration that no longer holds (docs/phone-mics.md
/// "Re-calibration when a phone's timing moves").
@Suite struct PhoneTimingFollowTests {
    /// Line 1 (0–0.5 s) is sung on the calibrated path; then the path grows by 120 ms and line 2
    /// (0.7–1.2 s) is sung through it: its audio lies at 0.82–1.32 s. `correction` is what
    /// `PhoneSeats` sets once the seat is flagged (the move, measured on the music). Returns
    /// both lines' scores.
    static func sing(follows: Bool, correction: Double) throws -> [Double] {
        let run = try PhoneLineLossTests.PhoneRun(followsTiming: follows)
        run.sleep(until: 0.62)
        try run.send(from: 0, to: 0.5)
        try run.send(from: 0.5, to: 0.62, silent: true)
        #expect(waitUntil(timeout: 4) { run.lines.count == 1 }, "line 1 did not close")
        run.slot.setTimingCorrection(correction)
        run.sleep(until: 1.4 + 0.12)
        try run.send(from: 0.7, to: 1.2, pathMoved: 0.12)  // the 0.2 s before it: filled with silence
        try run.send(from: 1.2, to: 1.4, pathMoved: 0.12, silent: true)
        #expect(waitUntil(timeout: 5) { run.lines.count == 2 }, "lines closed: \(run.lines.count)")
        #expect(run.lines.map(\.heard) == [true, true])
        return run.lines.map(\.result.score)
    }

    @Test func aRunFollowsItsSeatsMeasuredMoveAndNothingElse() throws {
        let followed = try Self.sing(follows: true, correction: 0.12)
        let stale = try Self.sing(follows: true, correction: 0)
        // A host's own delay (or a PulseAudio mic) is not moved by the seat's readings.
        let notFollowing = try Self.sing(follows: false, correction: 0.12)
        print("line scores: followed \(followed), on the stale calibration \(stale), not following \(notFollowing)")
        try #require(followed.count == 2 && stale.count == 2 && notFollowing.count == 2)
        #expect(followed[1] >= 0.97 * followed[0], "the moved line scores as the first: \(followed)")
        #expect(stale[1] < 0.85 * stale[0], "on the stale calibration the moved line loses its note's start: \(stale)")
        #expect(notFollowing[1] == stale[1], "\(notFollowing) vs \(stale)")
    }

    /// What the room's `state` shows for such a seat: the delay in effect (calibration + move)
    /// and the move, only while the seat is scored on its own calibration.
    @Test func theStateShowsTheDelayInEffectAndTheMoveFollowed() throws {
        let path = FileManager.default.temporaryDirectory.path + "/karaoke-follow-calibration-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var saved = CalibrationStore()
        saved.inputs[PhoneSeats.calibrationKey(name: "Ann")] = InputCalibration(delaySeconds: 0.15, clicks: 10, spreadSeconds: 0.004)
        try saved.save(path: path)
        var options = LiveRoomSession.Options()
        options.calibrationPath = path
        let slot = PhoneMicSlot(slot: 0)
        slot.setSeated(true)
        let live = LiveRoomSession(microphones: [LiveMicrophone(phone: slot)], clock: PlaybackClock(),
                                   sink: PulseAudioTests.LiveRoomSessionCalibrationTests.NullSink(), store: nil, options: options)
        defer { live.close() }
        let ann = SingerPayload(singer: 0, name: "Ann", part: 0, micDelayMs: 0)
        func shown(_ seat: SingerPayload) throws -> SingerPayload {
            let report: MicrophoneReport = try #require(live.microphone(singer: 0, seat: seat))
            return seat.reporting(report)
        }
        #expect(try shown(ann).effectiveMicDelayMs == 150 && shown(ann).micDelayMovedMs == nil)
        slot.setTimingCorrection(0.08)
        let moved = try shown(ann)
        #expect(moved.effectiveMicDelayMs == 230 && moved.micDelayMovedMs == 80 && moved.micDelaySource == .calibrated)
        // A host's setting is not moved; nor a seat on the default delay (Bob was never calibrated).
        var set = ann
        set.micDelayMs = 200
        #expect(try shown(set).effectiveMicDelayMs == 200 && shown(set).micDelayMovedMs == nil)
        let bob = SingerPayload(singer: 0, name: "Bob", part: 0, micDelayMs: 0)
        #expect(try shown(bob).micDelaySource == .default && shown(bob).micDelayMovedMs == nil)
        // The next calibration holds the move itself.
        slot.markCalibrated()
        #expect(try shown(ann).effectiveMicDelayMs == 150 && shown(ann).micDelayMovedMs == nil)
    }
}
