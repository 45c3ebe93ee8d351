/// Whether a phone seat's timing has moved since its calibration. The clock-sync offset the page
/// sends (host − phone audio clock) carries the phone's audio-path timing: a browser whose audio
/// context slips, or whose clock runs at another rate, moves it. A calibration measured at one
/// offset is suspect once the offset has stayed more than `threshold` away for `hold` seconds
/// (a single wobble does not count); the seat is then flagged `needsCalibration`.
struct CalibrationDrift: Sendable, Equatable {
    static let threshold = 0.020
    static let hold = 2.0

    /// When the offset last left the band around the calibrated one (host seconds); nil inside it.
    private(set) var awaySince: Double?
    /// The calibration `awaySince` was measured against: a new one starts the hold again.
    private var against: Double?

    /// One reading (every 250 ms): whether the seat should calibrate again now. Without a
    /// calibration made while seated, or before the first clock sync, there is nothing to compare.
    mutating func update(calibratedOffset: Double?, offset: Double?, now: Double) -> Bool {
        guard let calibratedOffset, let offset, abs(offset - calibratedOffset) > Self.threshold else {
            awaySince = nil
            return false
        }
        if against != calibratedOffset {
            against = calibratedOffset
            awaySince = nil
        }
        let since = awaySince ?? now
        awaySince = since
        return now - since >= Self.hold
    }
}
