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
    /// Largest number of input samples `process` takes per call.
    let maxBlock: Int
    /// Input samples that must arrive after `m × factor` before output `m` can be produced.
    let groupDelay: Int
    private let coefficients: UnsafeMutablePointer<Float>
    /// `taps − 1` samples of history followed by the current block, so every output's
    /// input span is contiguous.
    private let buffer: UnsafeMutablePointer<Float>
    /// Input samples to skip before the next output is due.
    private var countdown: Int

    init(factor: Int, tapsPerPhase: Int = 8, maxBlock: Int = 1024) {
        precondition(factor >= 1)
        self.factor = factor
        self.maxBlock = maxBlock
        let taps = factor == 1 ? 1 : tapsPerPhase * factor + 1
        self.taps = taps
        groupDelay = (taps - 1) / 2
        countdown = (taps - 1) / 2
        coefficients = .allocate(capacity: taps)
        buffer = .allocate(capacity: taps - 1 + maxBlock)
        buffer.initialize(repeating: 0, count: taps - 1 + maxBlock)
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
        buffer.deallocate()
    }

    /// Back to the initial (silent) state.
    func reset() {
        buffer.update(repeating: 0, count: taps - 1 + maxBlock)
        countdown = groupDelay
    }

    /// Filters and downsamples `count ≤ maxBlock` input samples into `output`
    /// (room for `maxBlock / factor + 1` samples); returns how many outputs were written.
    @inline(__always)
    func process(_ input: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        precondition(count <= maxBlock)
        if factor == 1 {
            output.update(from: input, count: count)
            return count
        }
        let history = taps - 1
        (buffer + history).update(from: input, count: count)
        var produced = 0
        var p = countdown
        while p < count {
            // Output for the input sample at block index p: its span ends there.
            output[produced] = dot(buffer + p, coefficients, taps)
            produced += 1
            p += factor
        }
        countdown = p - count
        buffer.update(from: buffer + count, count: history)
        return produced
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

