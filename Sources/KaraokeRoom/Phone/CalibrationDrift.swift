/// Whether a phone seat's timing has moved since its calibration, as the music measures it.
///
/// The pitch worker finds the room's backing in the phone's own stream (the bleed suppressor's
/// alignment) and reports how late it arrives: `LivePitchTracker.backingLag`. That is the
/// phone's whole path (speakers, air, browser buffering, clock mapping), the very thing the
/// calibration measured, so a move of it is the calibration going stale. After each calibration
/// the first lag that holds steady (within `steadiness` for `settle` seconds of readings) is the
/// baseline; a lag more than `threshold` away from it for `hold` seconds flags the seat
/// `needsCalibration`. A phone that hears no backing gives no readings and is never flagged.
/// Until it calibrates again, a flagged seat's scoring follows the move (`correction`): the
/// song being sung is not judged on a path that no longer holds.
///
/// (The clock-sync offset was the first trigger: it follows the page's audio context, and the
/// audio moves with it, so it flagged phones whose calibration still held.)
struct CalibrationDrift: Sendable {
    static let threshold = 0.020
    static let hold = 3.0
    static let settle = 3.0
    static let steadiness = 0.005
    /// A larger move is not followed (the seat stays flagged): the alignment may have locked onto
    /// a repeat of the music, a beat away, rather than a path that changed.
    static let followLimit = 0.25

    /// The lag after the current calibration (seconds); nil until it has settled.
    private(set) var baseline: Double?
    /// When the lag last left the band around the baseline (host seconds); nil inside it.
    private(set) var awaySince: Double?
    /// How far the newest lag is from the baseline (seconds), for the log.
    private(set) var moved: Double?
    /// The lag the log last stated (seconds): the baseline, then each move of `steadiness` or more.
    private var stated: Double?
    /// A move of the lag found by the last `update`, for the log: where the music now arrives and
    /// how far that is from the lag stated before. The readings hold still between moves (the
    /// alignment keeps its delay within 5 ms), so this names each real move once: what the page,
    /// the browser or the box did to the path, even inside the band.
    private(set) var statedMove: (lag: Double, change: Double)?
    private var settling: (lag: Double, since: Double)?
    private var calibration: Int?
    private var readings = 0

    /// One watch round (every 250 ms): whether the seat should calibrate again now. `calibration`
    /// is which calibration the seat's delay is from (nil: none while seated: nothing to compare
    /// with); `lag` the newest backing lag with its reading count (only new readings count).
    /// `songPlaying` false (a song's end, the clicks of a calibration, an idle room): readings
    /// are passed over, not kept for later. The backing's tail and the clicks are no song: a
    /// reading taken as a song ended stated −80.7 ms for a path the re-calibration then found
    /// where the song had left it.
    mutating func update(calibration: Int?, lag: (seconds: Double, readings: Int)?, now: Double,
                         songPlaying: Bool = true) -> Bool {
        if calibration != self.calibration {
            self = CalibrationDrift()
            self.calibration = calibration
        }
        guard calibration != nil else { return false }
        statedMove = nil
        guard let lag, lag.readings != readings else { return isAway(now: now) }
        readings = lag.readings
        guard songPlaying else { return isAway(now: now) }
        guard let baseline else {
            if let settling, abs(lag.seconds - settling.lag) <= Self.steadiness {
                if now - settling.since >= Self.settle { baseline = settling.lag; stated = settling.lag }
            } else {
                settling = (lag.seconds, now)
            }
            return false
        }
        if let stated, abs(lag.seconds - stated) >= Self.steadiness {
            statedMove = (lag.seconds, lag.seconds - stated)
            self.stated = lag.seconds
        }
        moved = lag.seconds - baseline
        if abs(lag.seconds - baseline) > Self.threshold {
            awaySince = awaySince ?? now
        } else {
            awaySince = nil
        }
        return isAway(now: now)
    }

    /// What the seat's runs should add to the calibrated delay, given what they add now: the move
    /// while flagged and within `followLimit` (re-read only when it shifts by `steadiness`, so
    /// the readings' wobble does not move the scoring), else 0.
    func correction(flagged: Bool, current: Double) -> Double {
        guard flagged, let moved, abs(moved) <= Self.followLimit else { return 0 }
        return abs(moved - current) >= Self.steadiness ? moved : current
    }

    private func isAway(now: Double) -> Bool {
        guard let awaySince else { return false }
        return now - awaySince >= Self.hold
    }
}
