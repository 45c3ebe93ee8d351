/// Protects against octave errors using the previous voiced frame (continuity).
///
/// In a periodic signal with period T, lags T, 2T, 3T … are all equally periodic. So:
/// - a real leap *up* (new T = old T/2) keeps the old lag periodic as well, while an
///   octave-too-high error (a strong 2nd harmonic) leaves the old lag clearly *more* periodic;
/// - a real leap *down* (new T = 2 × old T) makes the old lag aperiodic, while a
///   sub-harmonic error (2T chosen) leaves the old lag at least as periodic.
/// A candidate about ×2 or ×3 (in period) away from the previous frame is therefore checked
/// against the best peak near the previous period and replaced by it in the error cases.
struct OctaveGuard {
    let margin: Float
    private var previousLag: Float = 0

    init(margin: Float) { self.margin = margin }

    func check(
        _ candidate: PeriodCandidate, normalised: UnsafePointer<Float>, minLag: Int, maxLag: Int
    ) -> PeriodCandidate {
        guard previousLag > 0 else { return candidate }
        let ratio = candidate.lag / previousLag
        let wentDown = Self.near(ratio, 2) || Self.near(ratio, 3)
        let wentUp = Self.near(ratio, 0.5) || Self.near(ratio, 1.0 / 3)
        guard wentDown || wentUp else { return candidate }
        let lo = Int((previousLag * 0.95).rounded(.down)), hi = Int((previousLag * 1.05).rounded(.up))
        guard let held = PeakPicking.bestPeak(
            normalised: normalised, from: max(lo, minLag), to: min(hi, maxLag), maxLag: maxLag)
        else { return candidate }
        if wentDown { return held.clarity >= candidate.clarity - margin ? held : candidate }
        return held.clarity > candidate.clarity + margin ? held : candidate
    }

    @inline(__always)
    private static func near(_ ratio: Float, _ target: Float) -> Bool { abs(ratio / target - 1) < 0.06 }

    /// Records the period the frame finally used (0 when unvoiced: nothing to continue).
    mutating func commit(lag: Float) { previousLag = lag }

    mutating func reset() { previousLag = 0 }
}
