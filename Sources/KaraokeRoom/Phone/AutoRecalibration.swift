/// When the room re-runs a phone seat's calibration by itself, after `CalibrationDrift` flagged
/// the seat (its clock-sync offset moved > 20 ms for 2 s since its calibration). The clicks must
/// be heard alone, so never while a song plays: it waits for the room to be stopped (a song's
/// end, the wait between songs, an idle room). One seat at a time, the lowest slot first.
///
/// Bounded: one attempt per seat per flag episode (an episode: the seat flagged against one
/// calibration; a success makes a new calibration, so only a new move flags it again); a failed attempt is tried again only once a song has played since, so a
/// phone that cannot hear the speakers costs a few seconds of clicks per song, not a loop. A
/// seat never calibrated while seated is never run: there is no calibration to compare with.
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
        /// The clock-sync offset of its last calibration while seated (`PhoneMicSlot.calibratedOffset`;
        /// nil: none). A new one (any calibration that succeeded) starts a new episode.
        var calibratedOffset: Double?
        /// The phone is connected and streaming (network "ok"): it can hear the clicks.
        var reachable: Bool
    }

    enum Outcome: Sendable, Equatable {
        case calibrated
        case failed
        /// The room did not start it (a song started, or another calibration, meanwhile): no attempt spent.
        case notStarted
    }

    private struct Attempt: Equatable {
        /// The calibration the seat had moved away from.
        var against: Double?
        var failed = false
        /// A song was seen playing since the attempt.
        var songSince = false
    }

    /// The slot being calibrated now.
    private(set) var running: Int?
    private var attempts: [Int: Attempt] = [:]

    /// One watch round: the seat to calibrate now, if any, noted as running (the caller then
    /// asks the room and reports `finished`).
    mutating func next(seats: [Seat], window: Window) -> Int? {
        let present = Set(seats.map(\.slot))
        attempts = attempts.filter { present.contains($0.key) }  // a seat given up starts afresh
        for seat in seats {
            guard var attempt = attempts[seat.slot] else { continue }
            if window == .playing { attempt.songSince = true }
            // The episode is over once the flag clears; a failure waits for a song all the same.
            if !seat.flagged, !attempt.failed || attempt.songSince {
                attempts[seat.slot] = nil
            } else {
                attempts[seat.slot] = attempt
            }
        }
        guard running == nil, window == .quiet else { return nil }
        let due = seats.sorted { $0.slot < $1.slot }.first { seat in
            guard seat.flagged, seat.calibratedOffset != nil, seat.reachable else { return false }
            guard let attempt = attempts[seat.slot], attempt.against == seat.calibratedOffset else { return true }
            return attempt.failed && attempt.songSince
        }
        guard let due else { return nil }
        running = due.slot
        attempts[due.slot] = Attempt(against: due.calibratedOffset)
        return due.slot
    }

    /// The room's answer for the running seat. A success gives the seat a new calibration (and
    /// offset), so a later move is a new episode; a failure keeps the old one.
    mutating func finished(slot: Int, _ outcome: Outcome) {
        if running == slot { running = nil }
        switch outcome {
        case .calibrated: break
        case .failed: attempts[slot]?.failed = true
        case .notStarted: attempts[slot] = nil
        }
    }
}
