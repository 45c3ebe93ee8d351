import Foundation

/// Takes out what a full mix has panned to the centre — the lead vocal, in almost every
/// studio mix — and keeps the bass, which is centred too:
///
///     mid = (L + R) / 2,  side = (L − R) / 2
///     L' = side + LP(mid),  R' = −side + LP(mid)
///
/// `LP` is a 4th-order Linkwitz–Riley low-pass at `bassCutoff` (two cascaded Butterworth
/// biquads, −24 dB/octave): kick and bass fundamentals stay, a voice's fundamental and
/// harmonics above it go. Anything panned off-centre (most instruments, stereo reverb) stays.
///
/// Runs on the audio thread, in place on the track's samples before Rubber Band: no
/// allocation, no locks; the filter state is a few doubles. `reset()` clears the state on a
/// discontinuity (seek, re-prime), so no tail of the previous position leaks in.
public struct VocalReducer: Sendable {
    /// Below this the centre is kept (Hz). A sung fundamental is rarely below ~100 Hz; the
    /// filter is −6 dB here and −22 dB at 220 Hz.
    public static let bassCutoff = 120.0

    private struct Biquad: Sendable {
        var b0 = 0.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
        var z1 = 0.0, z2 = 0.0

        /// RBJ cookbook low-pass, Q = 1/√2 (Butterworth).
        init(lowPass cutoff: Double, sampleRate: Double) {
            let w = 2 * Double.pi * cutoff / sampleRate
            let alpha = sin(w) / (2 * 0.5.squareRoot())  // sin w / 2Q
            let cosw = cos(w)
            let a0 = 1 + alpha
            b0 = (1 - cosw) / 2 / a0
            b1 = (1 - cosw) / a0
            b2 = b0
            a1 = -2 * cosw / a0
            a2 = (1 - alpha) / a0
        }

        /// Transposed direct form II.
        @inline(__always) mutating func process(_ x: Double) -> Double {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }
    }

    private var first: Biquad
    private var second: Biquad

    public init(sampleRate: Double, bassCutoff: Double = VocalReducer.bassCutoff) {
        first = Biquad(lowPass: bassCutoff, sampleRate: sampleRate)
        second = first
    }

    /// Forgets the filter's history (after a jump in the track).
    public mutating func reset() {
        first.z1 = 0; first.z2 = 0
        second.z1 = 0; second.z2 = 0
    }

    /// Reduces two whole channels in place, `block` frames at a time as the renderer pulls them
    /// (the filter state carries across blocks). Offline use only: tests and benchmarks.
    public mutating func process(left: inout [Float], right: inout [Float], block: Int) {
        precondition(left.count == right.count && block > 0)
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                var at = 0
                while at < l.count {
                    let n = min(block, l.count - at)
                    process(left: l.baseAddress! + at, right: r.baseAddress! + at, count: n)
                    at += n
                }
            }
        }
    }

    /// Reduces `count` frames of the two channels in place.
    public mutating func process(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let l = Double(left[i]), r = Double(right[i])
            let bass = second.process(first.process((l + r) * 0.5))
            let side = (l - r) * 0.5
            left[i] = Float(bass + side)
            right[i] = Float(bass - side)
        }
    }
}
