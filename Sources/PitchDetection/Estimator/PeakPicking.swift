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
        minLag: Int, maxLag: Int, threshold: Float, lobeMargin: Float, octaveCost: Float = 0.05
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
        // Snap to the highest autocorrelation peak of the cluster: with a strong formant the
        // autocorrelation has side lobes at T ± 1/F_formant that can dip below the threshold
        // first; the true period is the highest peak of that cluster (octaves are ±100 %).
        // A lobe 15 % short of T has T at +17.6 % of it, so the search reaches +20 % (−15 %).
        var best = refine(normalised: normalised, at: chosen, maxLag: maxLag)
        if let snapped = bestPeak(
            normalised: normalised, from: max(minLag, chosen * 85 / 100), to: min(maxLag, chosen * 120 / 100 + 1),
            maxLag: maxLag), snapped.clarity > best.clarity {
            best = snapped
        }
        // A voice whose power is in its fundamental and one strong high harmonic k (an /i/ sung
        // high: F2 on the 7th) has lobes at j·T/k for every j; the first dip can be one of them
        // 30–40 % short of T. T is then clearly more periodic than any lobe, while for a true
        // period nothing short of its octave is: a peak up to the octave beating the choice by
        // `lobeMargin` is the period.
        if let farther = bestPeak(
            normalised: normalised, from: chosen * 120 / 100 + 2, to: min(maxLag, chosen * 192 / 100),
            maxLag: maxLag), farther.clarity > best.clarity + lobeMargin {
            best = farther
        }
        return best
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
    /// is taken (not a longer multiple of it: those are equally periodic). Multiples 3…6 are only
    /// considered as periods of at least `minLag` (the check is for low voices). The octave 2·L is
    /// considered at any pitch and needs only `octaveMargin` when that is the smaller: a voice read
    /// at its 2nd harmonic, where its first formant sits (a man's 220 Hz read at 440 Hz, or his
    /// 384 Hz at 768 Hz), has 2·L 0.06–0.09 more periodic than L. Returns nil when L stands.
    static func harmonicReading(
        _ candidate: PeriodCandidate, normalised: UnsafePointer<Float>, minLag: Float, maxLag: Int, margin: Float,
        octaveMargin: Float
    ) -> PeriodCandidate? {
        var best: Float = 0
        var found = false
        for m in 2...6 {
            let needed: Float
            if m == 2 {
                // The octave at any pitch: a man's G3 read at G4 is as sure a case as his G4 at G5.
                needed = min(margin, octaveMargin)
            } else if Float(m) * candidate.lag >= minLag {
                needed = margin
            } else {
                continue
            }
            guard reaches(Float(m) * candidate.lag, maxLag: maxLag) else { break }
            guard let peak = peakNear(Float(m) * candidate.lag, normalised: normalised, maxLag: maxLag, tolerance: tolerance(m))
            else { continue }
            if m == 2 && peak.clarity <= candidate.clarity + margin
                && !octaveStandsOut(peak, over: candidate, normalised: normalised, maxLag: maxLag) { continue }
            if peak.clarity > max(best, candidate.clarity + needed) { best = peak.clarity; found = true }
        }
        guard found else { return nil }
        // The period moved to is the smallest multiple as periodic as the best, even one above
        // the ceiling: a high voice read at its 2nd harmonic (its 1st beyond `maxFrequency`,
        // e.g. 568 Hz read at 1136 Hz) has 2·L as its period; looking only from the ceiling up
        // skipped it and took 4·L, an octave under the singer.
        for m in 2...6 {
            guard reaches(Float(m) * candidate.lag, maxLag: maxLag) else { break }
            guard let peak = peakNear(Float(m) * candidate.lag, normalised: normalised, maxLag: maxLag, tolerance: tolerance(m))
            else { continue }
            if peak.clarity >= best - 0.05 { return peak }
        }
        return nil
    }

    /// Whether an octave that beats L only narrowly (by less than the other multiples' margin) also
    /// beats 3·L by `octaveOverTripleMargin`. A true period P = 2·L is not periodic at 3·L = 1.5·P
    /// (0.065 or more under P for 99 % of such frames of real voices), while for a true period L
    /// every multiple gains together where its periodicity dips (a note's transition), 3·L as much as
    /// 2·L (docs/pitch.md, "Pipeline", stage 5). True when 3·L is out of range.
    static func octaveStandsOut(
        _ octave: PeriodCandidate, over candidate: PeriodCandidate, normalised: UnsafePointer<Float>, maxLag: Int
    ) -> Bool {
        guard reaches(3 * candidate.lag, maxLag: maxLag),
              let triple = peakNear(3 * candidate.lag, normalised: normalised, maxLag: maxLag, tolerance: tolerance(3))
        else { return true }
        return octave.clarity - triple.clarity >= octaveOverTripleMargin
    }

    private static let octaveOverTripleMargin: Float = 0.03

    /// How far from m·L the harmonic-reading check looks for the period. The octave's search is
    /// wider: the first dip can be a formant lobe beside T/2 rather than T/2 itself (a man's 216 Hz
    /// read at 466 or 413 Hz, 2·L then 7 % off T); for a true period L, the only peak within ±8 % of
    /// 2·L is its own octave.
    static func tolerance(_ m: Int) -> Float { m == 2 ? 0.08 : 0.04 }

    /// Whether the ±4 % search around `lag` stays within `maxLag`.
    private static func reaches(_ lag: Float, maxLag: Int) -> Bool { Int((lag * 1.04).rounded(.up)) <= maxLag }

    /// The best peak within ±`tolerance` of `lag`, nil when there is none.
    static func peakNear(
        _ lag: Float, normalised: UnsafePointer<Float>, maxLag: Int, tolerance: Float
    ) -> PeriodCandidate? {
        let lo = Int((lag * (1 - tolerance)).rounded(.down)), hi = Int((lag * (1 + tolerance)).rounded(.up))
        return bestPeak(normalised: normalised, from: lo, to: hi, maxLag: maxLag)
    }

    /// The strongest local maximum of `n(τ)` within `lo…hi`, compared by their refined heights
    /// (integer samples can rank a side lobe above the true peak); nil if there is none.
    static func bestPeak(normalised: UnsafePointer<Float>, from lo: Int, to hi: Int, maxLag: Int) -> PeriodCandidate? {
        let lo = max(1, lo), hi = min(maxLag, hi)
        guard lo <= hi else { return nil }
        var best: PeriodCandidate?
        for l in lo...hi where normalised[l] >= normalised[l - 1] && normalised[l] >= normalised[l + 1] {
            let peak = refine(normalised: normalised, at: l, maxLag: maxLag)
            if best == nil || peak.clarity > best!.clarity { best = peak }
        }
        return best
    }

    /// Sub-sample period and height of the autocorrelation peak at (or beside) an integer lag:
    /// band-limited interpolation (`BandLimitedPeak`), or a parabola through three samples at
    /// the ends of the range. `n` must hold τ = 0 … maxLag + 1 + `BandLimitedPeak.halfWidth`.
    static func refine(normalised n: UnsafePointer<Float>, at lag: Int, maxLag: Int) -> PeriodCandidate {
        guard lag >= 1 && lag <= maxLag else { return PeriodCandidate(lag: Float(lag), clarity: n[lag]) }
        // The autocorrelation peak may sit one lag beside the difference minimum.
        var lag = lag
        if lag + 1 < maxLag && n[lag + 1] > n[lag] && n[lag + 1] >= n[lag - 1] { lag += 1 }
        else if lag - 1 >= 1 && n[lag - 1] > n[lag] { lag -= 1 }
        if let peak = BandLimitedPeak.peak(n, at: lag, lastIndex: maxLag + 1 + BandLimitedPeak.halfWidth) { return peak }
        let vertex = parabolicVertex(n[lag - 1], n[lag], n[lag + 1])
        return PeriodCandidate(lag: Float(lag) + vertex.shift, clarity: vertex.height)
    }

    /// The vertex of the parabola through three equally spaced samples around the middle one `b`:
    /// its offset in steps (within ±1) and height; `b` itself where the samples do not curve down.
    static func parabolicVertex(_ a: Float, _ b: Float, _ c: Float) -> (shift: Float, height: Float) {
        let curvature = a - 2 * b + c
        guard curvature < 0 else { return (0, b) }
        let shift = max(-1, min(1, 0.5 * (a - c) / curvature))
        return (shift, b - 0.25 * (a - c) * shift)
    }
}
