import Foundation

/// Streaming anti-alias low-pass + downsampling by a whole factor, allocation-free after init.
///
/// Singing fundamentals lie below 1.1 kHz, so analysing at ~16 kHz instead of 48 kHz costs
/// nothing in accuracy and divides the FFT work by three. The filter is a linear-phase
/// windowed sinc evaluated *centred* on input sample `m × factor`, so output `m` describes
/// exactly input time `m × factor / rate`; the price is `groupDelay` input samples of latency.
final class Decimator {
    let factor: Int
    let taps: Int
    /// Input samples that must arrive after `m × factor` before output `m` can be produced.
    let groupDelay: Int
    private let coefficients: UnsafeMutablePointer<Float>
    /// Double-written ring: the last `taps` inputs are always contiguous at `history + writeIndex`.
    private let history: UnsafeMutablePointer<Float>
    private var writeIndex = 0
    private var countdown: Int

    init(factor: Int, tapsPerPhase: Int = 16) {
        precondition(factor >= 1)
        self.factor = factor
        let taps = factor == 1 ? 1 : tapsPerPhase * factor + 1
        self.taps = taps
        groupDelay = (taps - 1) / 2
        countdown = (taps - 1) / 2
        coefficients = .allocate(capacity: taps)
        history = .allocate(capacity: 2 * taps)
        history.initialize(repeating: 0, count: 2 * taps)
        if factor == 1 {
            coefficients.initialize(to: 1)
        } else {
            // Pass band to 0.9 × the new Nyquist, Blackman window, unity DC gain.
            let cutoff = 0.9 / Double(factor)
            var sum = 0.0
            var h = [Double](repeating: 0, count: taps)
            for i in 0..<taps {
                let x = Double(i - groupDelay)
                let sinc = x == 0 ? 1 : sin(Double.pi * cutoff * x) / (Double.pi * cutoff * x)
                let n = Double(i) / Double(taps - 1)
                let window = 0.42 - 0.5 * cos(2 * Double.pi * n) + 0.08 * cos(4 * Double.pi * n)
                h[i] = sinc * window
                sum += h[i]
            }
            for i in 0..<taps { coefficients[i] = Float(h[i] / sum) }
        }
    }

    deinit {
        coefficients.deallocate()
        history.deallocate()
    }

    /// Back to the initial (silent) state.
    func reset() {
        history.update(repeating: 0, count: 2 * taps)
        writeIndex = 0
        countdown = groupDelay
    }

    /// Pushes one input sample; returns an output sample when one is due.
    @inline(__always)
    func push(_ x: Float) -> Float? {
        if factor == 1 { return x }
        history[writeIndex] = x
        history[writeIndex + taps] = x
        writeIndex += 1
        if writeIndex == taps { writeIndex = 0 }
        if countdown > 0 {
            countdown -= 1
            return nil
        }
        countdown = factor - 1
        return dot(history + writeIndex, coefficients, taps)
    }

    /// Eight-lane dot product (the scalar loop would not vectorise: float sums are ordered).
    @inline(__always)
    private func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc = SIMD8<Float>()
        var i = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while i + 8 <= n {
            let va = ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let vb = rb.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            acc += va * vb
            i += 8
        }
        var sum = acc.sum()
        while i < n {
            sum += a[i] * b[i]
            i += 1
        }
        return sum
    }
}

