/// When the room re-runs a phone seat's calibration by itself, after `CalibrationDrift` flagged
/// the seat (the backing arrives in its stream > 20 ms off where it did after its calibration,
/// for 3 s). The clicks must
/// be heard alone, so never while a song plays: it waits for the room to be stopped (a song's
/// end, the wait between songs, an idle room). One seat at a time, the lowest slot first.
///
/// Bounded: at most one automatic run per seat between two songs, whatever its outcome (a
/// failure is tried again only after the next song; a success whose timing moves on at once,
/// as a starved browser's does, is not re-run in a loop either), so a false flag or a phone that
/// cannot hear the speakers costs a few seconds of clicks per song at most. A seat never
/// calibrated while seated is never run: there is no calibration to compare with.
struct AutoRecalibration: Sendable, Equatable {
    /// What the room is doing, for the clicks.
    enum Window: Sendable, Equatable {
        /// A song plays, or is about to (loaded to play).
        case playing
        /// The room is stopped and no calibration runs: the clicks can be heard alone.
        case quiet
        /// Paused mid-song, or a calibration runs (any singer's): not now, but no song either.
        case busy
    }

    /// One phone seat as `PhoneSeats` sees it in a watch round.
    struct Seat: Sendable, Equatable {
        var slot: Int
        /// `needsCalibration`: the timing moved since its calibration.
        var flagged: Bool
        /// Calibrated while seated (`PhoneMicSlot.calibration`): there is a delay to keep true.
        var calibrated: Bool
        /// The phone is connected and streaming (network "ok"): it can hear the clicks.
        var reachable: Bool
    }

    enum Outcome: Sendable, Equatable {
        case calibrated
        case failed
        /// The room did not start it (a song started, or another calibration, meanwhile): no attempt spent.
        case notStarted
    }

    /// The slot being calibrated now.
    private(set) var running: Int?
    /// Seats re-run (whatever the outcome) since a song last played: not again before the next one.
    private var tried: Set<Int> = []

    /// One watch round: the seat to calibrate now, if any, noted as running (the caller then
    /// asks the room and reports `finished`).
    mutating func next(seats: [Seat], window: Window) -> Int? {
        if window == .playing { tried = [] }
        tried.formIntersection(seats.map(\.slot))  // a seat given up starts afresh
        guard running == nil, window == .quiet else { return nil }
        let due = seats.sorted { $0.slot < $1.slot }.first { seat in
            seat.flagged && seat.calibrated && seat.reachable && !tried.contains(seat.slot)
        }
        guard let due else { return nil }
        running = due.slot
        tried.insert(due.slot)
        return due.slot
    }

    /// The room's answer for the running seat: one that did not start costs no attempt.
    mutating func finished(slot: Int, _ outcome: Outcome) {
        if running == slot { running = nil }
        if outcome == .notStarted { tried.remove(slot) }
    }
}
