import Foundation

/// Band-limited resampling (windowed sinc) for whole buffers, off the audio thread:
/// songs and recordings arrive at 44.1 kHz, devices and the pitch detector run at 48 kHz.
public enum Resampler {
    /// Resamples one channel from `fromRate` to `toRate`.
    public static func resample(_ input: [Float], from fromRate: Double, to toRate: Double, taps: Int = 16) -> [Float] {
        if fromRate == toRate || input.isEmpty { return input }
        let ratio = toRate / fromRate
        let outCount = Int((Double(input.count) * ratio).rounded(.down))
        // Low-pass at the lower Nyquist to avoid aliasing when downsampling.
        let cutoff = min(1.0, ratio)
        var out = [Float](repeating: 0, count: outCount)
        input.withUnsafeBufferPointer { src in
            for i in 0..<outCount {
                let center = Double(i) / ratio
                let first = Int(center.rounded(.down)) - taps + 1
                var acc = 0.0
                var weight = 0.0
                for j in first...(first + 2 * taps - 1) where j >= 0 && j < src.count {
                    let x = center - Double(j)
                    let w = sinc(x * cutoff) * cutoff * blackman(x / Double(taps))
                    acc += Double(src[j]) * w
                    weight += w
                }
                // Normalise by the summed weights so DC passes at unity gain.
                out[i] = weight != 0 ? Float(acc / weight) : 0
            }
        }
        return out
    }

    /// Resamples every channel of an interleaved buffer.
    public static func resample(_ buffer: AudioBuffer, to toRate: Double) -> AudioBuffer {
        if buffer.sampleRate == toRate { return buffer }
        let channels = (0..<buffer.channels).map { resample(buffer.channel($0), from: buffer.sampleRate, to: toRate) }
        let frames = channels.first?.count ?? 0
        var interleaved = [Float](repeating: 0, count: frames * buffer.channels)
        for (c, data) in channels.enumerated() {
            for f in 0..<frames { interleaved[f * buffer.channels + c] = data[f] }
        }
        return AudioBuffer(samples: interleaved, sampleRate: toRate, channels: buffer.channels)
    }

    private static func sinc(_ x: Double) -> Double {
        if abs(x) < 1e-9 { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }

    private static func blackman(_ x: Double) -> Double {
        if abs(x) >= 1 { return 0 }
        let n = (x + 1) / 2
        return 0.42 - 0.5 * cos(2 * Double.pi * n) + 0.08 * cos(4 * Double.pi * n)
    }
}
