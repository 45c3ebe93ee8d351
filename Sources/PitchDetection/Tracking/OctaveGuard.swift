/// Protects against octave errors using the previous voiced frame (continuity).
///
/// In a periodic signal with period T, lags T, 2T, 3T … are all equally periodic. So:
/// - a real leap *up* (new T = old T/2) keeps the old lag periodic as well, while an
///   octave-too-high error (a strong 2nd harmonic) leaves the old lag clearly *more* periodic;
/// - a real leap *down* (new T = 2 × old T) makes the old lag aperiodic, while a
///   sub-harmonic error (2T chosen) leaves the old lag at least as periodic.
/// A candidate about ×2 … ×6 longer in period than the previous frame, or more than a fourth
/// shorter, is therefore checked against the best peak near the previous period and replaced
/// by it in the error cases.
/// Ratios up to 6 matter for low voices: a 100 Hz voice whose 5th or 6th harmonic sits on the
/// first formant can look periodic at T/5 or T/6 for a frame or two.
struct OctaveGuard {
    let margin: Float
    /// The period the previous frame used (0 when it was unvoiced).
    private(set) var previousLag: Float = 0

    init(margin: Float) { self.margin = margin }

    func check(
        _ candidate: PeriodCandidate, normalised: UnsafePointer<Float>, minLag: Int, maxLag: Int
    ) -> PeriodCandidate {
        guard previousLag > 0 else { return candidate }
        let ratio = candidate.lag / previousLag
        let wentDown = Self.multiples.contains { Self.near(ratio, $0) }
        // Upwards any leap beyond a fourth is checked, not only exact harmonics: a formant side
        // lobe can move a harmonic reading by ±7 % (a 131 Hz voice read at 367 Hz, ×2.8). The
        // check is safe for real leaps: the old period is then aperiodic, or (a harmonic leap)
        // no more periodic than the new one, and only a clearly more periodic old period is held.
        let wentUp = ratio < Self.upwardLeap
        guard wentDown || wentUp else { return candidate }
        let lo = Int((previousLag * 0.95).rounded(.down)), hi = Int((previousLag * 1.05).rounded(.up))
        guard let held = PeakPicking.bestPeak(
            normalised: normalised, from: max(lo, minLag), to: min(hi, maxLag), maxLag: maxLag)
        else { return candidate }
        if wentDown { return held.clarity >= candidate.clarity - margin ? held : candidate }
        return held.clarity > candidate.clarity + margin ? held : candidate
    }

    private static let multiples: [Float] = [2, 3, 4, 5, 6]
    /// Period ratio below which a jump counts as a leap up (a fourth: 3/4).
    private static let upwardLeap: Float = 0.75

    @inline(__always)
    private static func near(_ ratio: Float, _ target: Float) -> Bool { abs(ratio / target - 1) < 0.06 }

    /// Records the period the frame finally used (0 when unvoiced: nothing to continue).
    mutating func commit(lag: Float) { previousLag = lag }

    mutating func reset() { previousLag = 0 }
}
