import Foundation

/// Band-limited resampling (Blackman-windowed sinc) for whole buffers, off the audio thread:
/// songs and recordings arrive at 44.1 kHz, devices and the pitch detector run at 48 kHz.
///
/// The kernel is tabulated once per call at `phases` sub-sample positions and linearly
/// interpolated between them, so no trigonometry runs per tap.
public enum Resampler {
    /// Resamples one channel from `fromRate` to `toRate`.
    public static func resample(_ input: [Float], from fromRate: Double, to toRate: Double, taps: Int = 16) -> [Float] {
        if fromRate == toRate || input.isEmpty { return input }
        let kernel = Kernel(ratio: toRate / fromRate, taps: taps)
        return kernel.apply(to: input, ratio: toRate / fromRate, isCancelled: { false }) ?? []
    }

    /// How many output frames are computed between two `isCancelled` checks (milliseconds of work).
    static let cancellationStride = 16_384

    /// Resamples every channel of an interleaved buffer.
    public static func resample(_ buffer: AudioBuffer, to toRate: Double) -> AudioBuffer {
        resample(buffer, to: toRate, isCancelled: { false }) ?? buffer
    }

    /// Resamples every channel of an interleaved buffer, asking `isCancelled` every
    /// `cancellationStride` output frames; nil when it said yes (a song load that was superseded).
    public static func resample(_ buffer: AudioBuffer, to toRate: Double, isCancelled: () -> Bool) -> AudioBuffer? {
        if isCancelled() { return nil }
        if buffer.sampleRate == toRate { return buffer }
        let ratio = toRate / buffer.sampleRate
        let kernel = Kernel(ratio: ratio, taps: 16)
        var channels: [[Float]] = []
        for channel in 0..<buffer.channels {
            guard let data = kernel.apply(to: buffer.channel(channel), ratio: ratio, isCancelled: isCancelled) else { return nil }
            channels.append(data)
        }
        let frames = channels.first?.count ?? 0
        var interleaved = [Float](repeating: 0, count: frames * buffer.channels)
        for (c, data) in channels.enumerated() {
            for f in 0..<frames { interleaved[f * buffer.channels + c] = data[f] }
        }
        return AudioBuffer(samples: interleaved, sampleRate: toRate, channels: buffer.channels)
    }

    /// The windowed-sinc low-pass, sampled every 1/`phases` of an input sample.
    private struct Kernel {
        static let phases = 512
        /// Half the kernel's length in input samples.
        let reach: Int
        /// `table[k]` is the kernel at distance `k / phases` input samples (k ≥ 0; symmetric).
        let table: [Double]

        init(ratio: Double, taps: Int) {
            // Low-pass at the lower Nyquist to avoid aliasing when downsampling; the kernel
            // widens with it so the transition band stays as narrow as when upsampling.
            let cutoff = min(1.0, ratio)
            let halfWidth = Double(taps) / cutoff
            reach = Int(halfWidth.rounded(.up))
            let count = reach * Self.phases + 2
            table = (0..<count).map { k in
                let x = Double(k) / Double(Self.phases)
                return Resampler.sinc(x * cutoff) * cutoff * Resampler.blackman(x / halfWidth)
            }
        }

        func weight(at distance: Double) -> Double {
            let position = abs(distance) * Double(Self.phases)
            let index = Int(position)
            if index + 1 >= table.count { return 0 }
            let fraction = position - Double(index)
            return table[index] + (table[index + 1] - table[index]) * fraction
        }

        func apply(to input: [Float], ratio: Double, isCancelled: () -> Bool) -> [Float]? {
            let outCount = Int((Double(input.count) * ratio).rounded(.down))
            var out = [Float](repeating: 0, count: outCount)
            let finished = input.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for i in 0..<outCount {
                        if i % Resampler.cancellationStride == 0, isCancelled() { return false }
                        let center = Double(i) / ratio
                        let first = Int(center.rounded(.down)) - reach + 1
                        var acc = 0.0
                        var weightSum = 0.0
                        for j in max(first, 0)..<min(first + 2 * reach, src.count) {
                            let w = weight(at: center - Double(j))
                            acc += Double(src[j]) * w
                            weightSum += w
                        }
                        // Normalise by the summed weights so DC passes at unity gain.
                        dst[i] = weightSum != 0 ? Float(acc / weightSum) : 0
                    }
                    return true
                }
            }
            return finished ? out : nil
        }
    }

    fileprivate static func sinc(_ x: Double) -> Double {
        if abs(x) < 1e-9 { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }

    fileprivate static func blackman(_ x: Double) -> Double {
        if abs(x) >= 1 { return 0 }
        let n = (x + 1) / 2
        return 0.42 - 0.5 * cos(2 * Double.pi * n) + 0.08 * cos(4 * Double.pi * n)
    }
}
