/// The octave question asked again on the magnitude spectrum.
///
/// A voice whose odd harmonics are weak against its even ones (a man's 385 Hz with his first
/// formant on the 2nd harmonic, the fundamental further weakened by the low cut) looks almost as
/// periodic at half its period as at its period: the power autocorrelation `n(τ)` weighs each
/// harmonic by its power, so odd harmonics holding 5 % of it lower `n(T/2)` by only 0.1, and a
/// room's reverberation takes that much from `n(T)` too. Read on magnitudes (the autocorrelation
/// of `|X|`, as in Tolonen & Karjalainen's generalised autocorrelation) the same odd harmonics
/// weigh 20 % or more, and `n(T) − n(T/2)` stands at 0.1–0.3. For a true period L nothing is at
/// half its frequency, so the magnitudes' `n(2L)` is lower than their `n(L)` as the power's is.
/// Measured on the room harness's real voices (docs/pitch.md, "Pipeline", stage 5).
enum MagnitudeOctave {
    /// The period 2·L when the magnitude spectrum says the reading L is the 2nd harmonic, else nil.
    /// Asked only where the power autocorrelation leaves the octave open: the octave at least as
    /// periodic as L, standing out over 3·L (a true period L gains at 2·L and 3·L alike), and
    /// within the search range. The period returned is the power autocorrelation's peak near 2·L.
    static func octaveBelow(
        _ candidate: PeriodCandidate, difference: DifferenceFunction, maxLag: Int, margin: Float
    ) -> PeriodCandidate? {
        let normalised = difference.normalised
        let octaveLag = 2 * candidate.lag
        let lo = Int((octaveLag * (1 - PeakPicking.tolerance(2))).rounded(.down))
        let hi = Int((octaveLag * (1 + PeakPicking.tolerance(2))).rounded(.up))
        guard hi <= maxLag else { return nil }
        // Most frames end here, before any peak is interpolated: the samples near 2·L already fall
        // short of L (an interpolated peak is at most a few thousandths above its samples).
        var highest = -Float.infinity
        for lag in lo...hi where normalised[lag] > highest { highest = normalised[lag] }
        guard highest >= candidate.clarity - Self.sampleSlack,
              let octave = PeakPicking.peakNear(octaveLag, normalised: normalised, maxLag: maxLag, tolerance: PeakPicking.tolerance(2)),
              octave.clarity >= candidate.clarity,
              PeakPicking.octaveStandsOut(octave, over: candidate, normalised: normalised, maxLag: maxLag)
        else { return nil }
        return confirms(octave: octave.lag, over: candidate.lag, difference: difference, maxLag: maxLag, margin: margin)
            ? octave : nil
    }

    /// How far under its interpolated height a peak's highest sample may lie (a period of 20 lags
    /// or more has a peak a few lags wide).
    private static let sampleSlack: Float = 0.005

    /// Whether the magnitude spectrum's autocorrelation is higher at `octave` (about twice `lag`)
    /// than at `lag` by more than `margin`: `lag` is then half the period, a 2nd harmonic's.
    static func confirms(octave: Float, over lag: Float, difference: DifferenceFunction, maxLag: Int, margin: Float) -> Bool {
        let magnitudes = difference.magnitudeNormalised()
        guard let atOctave = PeakPicking.peakNear(octave, normalised: magnitudes, maxLag: maxLag, tolerance: 0.04),
              let atReading = PeakPicking.peakNear(lag, normalised: magnitudes, maxLag: maxLag, tolerance: 0.04)
        else { return false }
        return atOctave.clarity > atReading.clarity + margin
    }
}
