import Foundation

/// Height and position of an autocorrelation peak between integer lags, read from the
/// band-limited signal rather than from a parabola through three samples.
///
/// At 12–16 kHz a voice whose energy sits in a high harmonic (the /i/ of "neath" at G4: 14 % of
/// the power at 391 Hz, 52 % at 2.7 kHz, its 7th) has an autocorrelation that swings through a
/// whole cycle in 4–5 lags. A peak half a lag away from the nearest integer then reads 0.75–0.9
/// of its height, and a parabola through three such samples does not recover it: the period's
/// own peak lost to a formant side lobe (T ± 1/F2, read as +2.6 semitones) or to a multiple of
/// the period (the harmonic-reading check moved to 5·T). The autocorrelation of a band-limited
/// signal is band-limited too, so it is evaluated on a quarter-lag grid with a Lanczos kernel and
/// the parabola is fitted there, where it matches the peak's curvature.
enum BandLimitedPeak {
    /// Kernel half-width in lags (the autocorrelation must be computed this far past `maxLag + 1`).
    static let halfWidth = 6
    /// Grid offsets (quarter lags) evaluated on either side of an integer peak.
    private static let offsets: [Float] = [-0.75, -0.5, -0.25, 0.25, 0.5, 0.75]
    private static let taps = 2 * halfWidth
    /// Lanczos weights, `taps` per offset, for samples floor(lag + offset) − halfWidth + 1 … + halfWidth.
    /// Made once; `PitchDetector.init` touches it so the audio thread never initialises it.
    static let weights: [Float] = offsets.flatMap { offset in
        let fraction = offset - offset.rounded(.down)
        return (-halfWidth + 1...halfWidth).map { j in Float(lanczos(Double(fraction) - Double(j))) }
    }

    private static func lanczos(_ x: Double) -> Double {
        if abs(x) < 1e-9 { return 1 }
        let a = Double(halfWidth)
        guard abs(x) < a else { return 0 }
        let px = Double.pi * x
        return a * sin(px) * sin(px / a) / (px * px)
    }

    /// The interpolated peak around integer lag `lag` (a local maximum of `n`), or nil when the
    /// kernel would read outside `0 … lastIndex` (the caller then uses three samples).
    static func peak(_ n: UnsafePointer<Float>, at lag: Int, lastIndex: Int) -> PeriodCandidate? {
        guard lag - 1 - halfWidth >= 0, lag + 1 + halfWidth <= lastIndex else { return nil }
        // Values on the quarter grid from lag − 1 to lag + 1 (9 points; the integer ones as they are).
        var grid: (Float, Float, Float, Float, Float, Float, Float, Float, Float) =
            (n[lag - 1], 0, 0, 0, n[lag], 0, 0, 0, n[lag + 1])
        weights.withUnsafeBufferPointer { w in
            withUnsafeMutableBytes(of: &grid) { raw in
                let g = raw.baseAddress!.assumingMemoryBound(to: Float.self)
                for index in 0..<offsets.count {
                    let offset = offsets[index]
                    let first = lag + Int(offset.rounded(.down)) - halfWidth + 1
                    var sum: Float = 0
                    for t in 0..<taps { sum += w[index * taps + t] * n[first + t] }
                    g[4 + Int((offset * 4).rounded())] = sum
                }
            }
        }
        return withUnsafeBytes(of: &grid) { raw in
            let g = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            var best = 1
            for i in 1...7 where g[i] > g[best] { best = i }
            let vertex = PeakPicking.parabolicVertex(g[best - 1], g[best], g[best + 1])
            return PeriodCandidate(lag: Float(lag) + (Float(best - 4) + vertex.shift) * 0.25, clarity: vertex.height)
        }
    }
}
