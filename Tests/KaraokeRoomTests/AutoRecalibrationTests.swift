@testable import KaraokeRoom
import Testing

/// `AutoRecalibration`: when a flagged phone seat calibrates again by itself (no audio here;
/// the room's wiring is in `PhoneSeatCalibrationDriftTests`).
@Suite("Automatic phone re-calibration: which seat, when")
struct AutoRecalibrationTests {
    private static func seat(_ slot: Int, flagged: Bool = true, calibratedAt: Double? = 100, reachable: Bool = true) -> AutoRecalibration.Seat {
        AutoRecalibration.Seat(slot: slot, flagged: flagged, calibrated: calibratedAt != nil, reachable: reachable)
    }

    @Test func aSeatFlaggedDuringASongWaitsForItsEndThenRunsOncePerGapBetweenSongs() {
        var schedule = AutoRecalibration()
        let flagged = [Self.seat(0)]
        for _ in 0..<20 { #expect(schedule.next(seats: flagged, window: .playing) == nil) }
        // Paused mid-song, or another singer's calibration running: not yet either.
        #expect(schedule.next(seats: flagged, window: .busy) == nil)
        // The song ended: it runs now, and not twice while it runs.
        #expect(schedule.next(seats: flagged, window: .quiet) == 0)
        #expect(schedule.running == 0)
        #expect(schedule.next(seats: flagged, window: .quiet) == nil)
        schedule.finished(slot: 0, .calibrated)
        #expect(schedule.running == nil)
        // The calibration cleared the flag (at its new offset): nothing due.
        #expect(schedule.next(seats: [Self.seat(0, flagged: false, calibratedAt: 100.08)], window: .quiet) == nil)
        // A new move during the next song: it runs again at that song's end.
        #expect(schedule.next(seats: [Self.seat(0, calibratedAt: 100.08)], window: .playing) == nil)
        #expect(schedule.next(seats: [Self.seat(0, calibratedAt: 100.08)], window: .quiet) == 0)
    }

    /// Seen with real Chromium pages on a loaded box: the offset moved by hundreds of ms seconds
    /// after each calibration, so every success was flagged again; re-running each time held
    /// the room (and the host's play) for minutes.
    @Test func aSuccessFlaggedAgainAtOnceIsNotRerunBeforeTheNextSong() {
        var schedule = AutoRecalibration()
        #expect(schedule.next(seats: [Self.seat(0, calibratedAt: 100)], window: .quiet) == 0)
        schedule.finished(slot: 0, .calibrated)
        for _ in 0..<50 { #expect(schedule.next(seats: [Self.seat(0, calibratedAt: 100.08)], window: .quiet) == nil) }
        #expect(schedule.next(seats: [Self.seat(0, calibratedAt: 100.08)], window: .playing) == nil)
        #expect(schedule.next(seats: [Self.seat(0, calibratedAt: 100.08)], window: .quiet) == 0)
    }

    @Test func aFailureIsNotRetriedUntilASongHasPlayed() {
        var schedule = AutoRecalibration()
        let flagged = [Self.seat(0)]
        #expect(schedule.next(seats: flagged, window: .quiet) == 0)
        schedule.finished(slot: 0, .failed)
        // Still flagged, still stopped: no loop.
        for _ in 0..<50 { #expect(schedule.next(seats: flagged, window: .quiet) == nil) }
        // The flag wobbling off and on again between songs does not retry it either.
        #expect(schedule.next(seats: [Self.seat(0, flagged: false)], window: .quiet) == nil)
        #expect(schedule.next(seats: flagged, window: .quiet) == nil)
        // The next song plays (no clicks then), ends: one more attempt.
        #expect(schedule.next(seats: flagged, window: .playing) == nil)
        #expect(schedule.next(seats: flagged, window: .quiet) == 0)
        schedule.finished(slot: 0, .failed)
        #expect(schedule.next(seats: flagged, window: .quiet) == nil)
    }

    @Test func aSeatNeverCalibratedWhileSeatedOrNotStreamingIsNeverRun() {
        var schedule = AutoRecalibration()
        #expect(schedule.next(seats: [Self.seat(0, calibratedAt: nil)], window: .quiet) == nil)
        #expect(schedule.next(seats: [Self.seat(1, reachable: false)], window: .quiet) == nil)
        #expect(schedule.next(seats: [Self.seat(2, flagged: false)], window: .quiet) == nil)
        #expect(schedule.running == nil)
        // Back on the network: it runs.
        #expect(schedule.next(seats: [Self.seat(1)], window: .quiet) == 1)
    }

    @Test func twoFlaggedSeatsCalibrateOneAfterTheOther() {
        var schedule = AutoRecalibration()
        var seats = [Self.seat(3), Self.seat(1)]
        #expect(schedule.next(seats: seats, window: .quiet) == 1)
        #expect(schedule.next(seats: seats, window: .quiet) == nil, "one at a time")
        schedule.finished(slot: 1, .calibrated)
        seats[1] = Self.seat(1, flagged: false, calibratedAt: 100.05)
        #expect(schedule.next(seats: seats, window: .quiet) == 3)
        schedule.finished(slot: 3, .failed)
        #expect(schedule.next(seats: seats, window: .quiet) == nil)
    }

    @Test func aRunTheRoomDidNotStartCostsNoAttempt() {
        var schedule = AutoRecalibration()
        let flagged = [Self.seat(0)]
        #expect(schedule.next(seats: flagged, window: .quiet) == 0)
        schedule.finished(slot: 0, .notStarted)  // a song started between the tick and the room's check
        #expect(schedule.next(seats: flagged, window: .quiet) == 0)
    }

    @Test func aSeatGivenUpStartsAfreshForItsNextHolder() {
        var schedule = AutoRecalibration()
        #expect(schedule.next(seats: [Self.seat(0)], window: .quiet) == 0)
        schedule.finished(slot: 0, .failed)
        #expect(schedule.next(seats: [], window: .quiet) == nil)
        // Someone else in slot 0, calibrated and flagged: not held back by the last holder's failure.
        #expect(schedule.next(seats: [Self.seat(0)], window: .quiet) == 0)
    }
}
