import Foundation

/// A period candidate: fractional lag in analysis samples and its periodicity.
struct PeriodCandidate {
    var lag: Float
    var clarity: Float
}

/// Chooses the period from a YIN difference function.
enum PeakPicking {
    /// YIN's absolute-threshold rule: the first dip of `d′` below `threshold` in
    /// `minLag…maxLag`, followed down to its local minimum; the global minimum if none is
    /// below. Taking the *first* good dip rather than the deepest avoids sub-harmonics
    /// (2T, 3T … dip just as deep as T in a periodic signal).
    static func yinPeriod(
        cmnd: UnsafePointer<Float>, normalised: UnsafePointer<Float>,
        minLag: Int, maxLag: Int, threshold: Float, octaveCost: Float = 0.05
    ) -> PeriodCandidate {
        var chosen = -1
        var lag = minLag
        while lag <= maxLag {
            if cmnd[lag] < threshold {
                // The deepest point of this dip (the whole run below the threshold, capped at
                // a fifth above the crossing so a following sub-harmonic dip is never merged).
                chosen = lag
                let end = min(maxLag, lag + lag / 2)
                var l = lag + 1
                while l <= end && cmnd[l] < threshold {
                    if cmnd[l] < cmnd[chosen] { chosen = l }
                    l += 1
                }
                break
            }
            lag += 1
        }
        if chosen < 0 {
            // No clear dip: take the autocorrelation peak with the best periodicity after a
            // small cost per octave of lag (as Praat's "octave cost"), so that in a mixture
            // the long common period of voice and accompaniment does not win by default.
            chosen = minLag
            var bestScore = -Float.infinity
            for l in minLag...maxLag where normalised[l] >= normalised[l - 1] && normalised[l] >= normalised[l + 1] {
                let score = normalised[l] - octaveCost * log2(Float(l) / Float(minLag))
                if score > bestScore { bestScore = score; chosen = l }
            }
            if bestScore == -Float.infinity {
                for l in minLag...maxLag where cmnd[l] < cmnd[chosen] { chosen = l }
            }
        }
        // Snap to the highest autocorrelation peak within ±15 %: with a strong formant the
        // autocorrelation has side lobes at T ± 1/F_formant that can dip below the threshold
        // first; the true period is the highest peak of that cluster (octaves are ±100 %).
        if let snapped = bestPeak(
            normalised: normalised, from: max(minLag, chosen * 85 / 100), to: min(maxLag, chosen * 115 / 100 + 1),
            maxLag: maxLag) {
            let here = refine(normalised: normalised, at: chosen, maxLag: maxLag)
            return snapped.clarity > here.clarity ? snapped : here
        }
        return refine(normalised: normalised, at: chosen, maxLag: maxLag)
    }

    /// Sub-harmonic check: when the period T/2 (or T/3) is almost as periodic as T, T is a
    /// sub-harmonic of a mixture (voice over a bass an octave below) or of a voice, and the
    /// shorter period is the sung one. `tolerance` is how much less periodic it may be.
    static func preferShorterPeriod(
        _ candidate: PeriodCandidate, normalised: UnsafePointer<Float>, minLag: Int, maxLag: Int, tolerance: Float
    ) -> PeriodCandidate {
        var best = candidate
        // T/2 before T/3: when both pass, the signal is a low voice rich in harmonics 2, 3, 4 …,
        // and an octave error folds away in scoring while T/3 (+19 semitones) would not.
        for divisor in stride(from: Float(2), through: 3, by: 1) {
            let target = candidate.lag / divisor
            let lo = Int((target * 0.96).rounded(.down)), hi = Int((target * 1.04).rounded(.up))
            guard lo >= minLag, let peak = bestPeak(normalised: normalised, from: lo, to: hi, maxLag: maxLag)
            else { continue }
            if peak.clarity >= candidate.clarity - tolerance { best = peak; break }
        }
        return best
    }

    /// Harmonic-reading check: when the first dip is at a harmonic of the voice rather than its
    /// period (a low voice whose 3rd … 6th harmonic sits on a narrow first formant is almost
    /// sinusoidal at T/k, so `d′(T/k)` dips below the threshold first), the true period T = k·L is
    /// clearly *more* periodic than L, while for a true period L its multiples are at most as
    /// periodic (vibrato and jitter decorrelate longer lags). So when the best peak near some
    /// m·L (m = 2 … 6) beats L by more than `margin`, the smallest m within 0.05 of that best
    /// is taken (not a longer multiple of it: those are equally periodic). Only periods of at
    /// least `minLag` are considered (the check is for low voices). Returns nil when L stands.
    static func harmonicReading(
        _ candidate: PeriodCandidate, normalised: UnsafePointer<Float>, minLag: Float, maxLag: Int, margin: Float
    ) -> PeriodCandidate? {
        var best: Float = 0
        var found = false
        for m in 2...6 where Float(m) * candidate.lag >= minLag {
            guard reaches(Float(m) * candidate.lag, maxLag: maxLag) else { break }
            guard let peak = peakNear(Float(m) * candidate.lag, normalised: normalised, maxLag: maxLag) else { continue }
            if peak.clarity > max(best, candidate.clarity + margin) { best = peak.clarity; found = true }
        }
        guard found else { return nil }
        // The period moved to is the smallest multiple as periodic as the best, even one above
        // the ceiling: a high voice read at its 2nd harmonic (its 1st beyond `maxFrequency`,
        // e.g. 568 Hz read at 1136 Hz) has 2·L as its period; looking only from the ceiling up
        // skipped it and took 4·L, an octave under the singer.
        for m in 2...6 {
            guard reaches(Float(m) * candidate.lag, maxLag: maxLag) else { break }
            guard let peak = peakNear(Float(m) * candidate.lag, normalised: normalised, maxLag: maxLag) else { continue }
            if peak.clarity >= best - 0.05 { return peak }
        }
        return nil
    }

    /// Whether the ±4 % search around `lag` stays within `maxLag`.
    private static func reaches(_ lag: Float, maxLag: Int) -> Bool { Int((lag * 1.04).rounded(.up)) <= maxLag }

    /// The best peak within ±4 % of `lag`, nil when there is none.
    private static func peakNear(_ lag: Float, normalised: UnsafePointer<Float>, maxLag: Int) -> PeriodCandidate? {
        let lo = Int((lag * 0.96).rounded(.down)), hi = Int((lag * 1.04).rounded(.up))
        return bestPeak(normalised: normalised, from: lo, to: hi, maxLag: maxLag)
    }

    /// The strongest local maximum of `n(τ)` within `lo…hi`, refined; nil if there is none.
    static func bestPeak(normalised: UnsafePointer<Float>, from lo: Int, to hi: Int, maxLag: Int) -> PeriodCandidate? {
        let lo = max(1, lo), hi = min(maxLag, hi)
        guard lo <= hi else { return nil }
        var best = -1
        for l in lo...hi where normalised[l] >= normalised[l - 1] && normalised[l] >= normalised[l + 1] {
            if best < 0 || normalised[l] > normalised[best] { best = l }
        }
        return best < 0 ? nil : refine(normalised: normalised, at: best, maxLag: maxLag)
    }

    /// Parabolic interpolation of `n(τ)` through the three points around an integer lag:
    /// sub-sample period (a few cents at 1 kHz and 16 kHz analysis rate) and peak height.
    static func refine(normalised n: UnsafePointer<Float>, at lag: Int, maxLag: Int) -> PeriodCandidate {
        guard lag >= 1 && lag <= maxLag else { return PeriodCandidate(lag: Float(lag), clarity: n[lag]) }
        // The autocorrelation peak may sit one lag beside the difference minimum.
        var lag = lag
        if lag + 1 < maxLag && n[lag + 1] > n[lag] && n[lag + 1] >= n[lag - 1] { lag += 1 }
        else if lag - 1 >= 1 && n[lag - 1] > n[lag] { lag -= 1 }
        let a = n[lag - 1], b = n[lag], c = n[lag + 1]
        let curvature = a - 2 * b + c
        guard curvature < 0 else { return PeriodCandidate(lag: Float(lag), clarity: b) }
        let shift = max(-1, min(1, 0.5 * (a - c) / curvature))
        let peak = b - 0.25 * (a - c) * shift
        return PeriodCandidate(lag: Float(lag) + shift, clarity: peak)
    }
}
