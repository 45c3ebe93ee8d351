import AudioFiles
import Foundation

/// Synthetic test audio and measurements shared by the audio engine tests.
enum TestSignals {
    static let rate = 48_000.0

    static func sine(_ hz: Double, seconds: Double, amplitude: Float = 0.5, rate: Double = rate) -> [Float] {
        (0..<Int(seconds * rate)).map { amplitude * Float(sin(2 * .pi * hz * Double($0) / rate)) }
    }

    /// Duration of one click of `clicks`.
    static let clickLength = 0.003

    /// Short 2 kHz bursts (3 ms, Hann-shaped) every `period` seconds, starting at `period`.
    static func clicks(period: Double, seconds: Double, rate: Double = rate) -> [Float] {
        var out = [Float](repeating: 0, count: Int(seconds * rate))
        let len = Int(clickLength * rate)
        var t = period
        while t < seconds - 0.01 {
            let start = Int((t * rate).rounded())
            for i in 0..<len where start + i < out.count {
                let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(len))
                out[start + i] = Float(0.9 * w * sin(2 * Double.pi * 2000 * Double(i) / rate))
            }
            t += period
        }
        return out
    }

    /// Writes mono samples to a temporary WAV (float) and returns its path.
    static func writeTemp(_ samples: [Float], rate: Double = rate, name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-audio-tests-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try AudioFile.write(AudioBuffer(samples: samples, sampleRate: rate, channels: 1), to: path, format: .wavFloat)
        return path
    }

    /// Frequency of a (near) pure tone from interpolated rising zero crossings.
    static func frequency(_ x: ArraySlice<Float>, rate: Double = rate) -> Double? {
        let a = Array(x)
        var crossings: [Double] = []
        for i in 1..<a.count where a[i - 1] < 0 && a[i] >= 0 {
            let frac = Double(-a[i - 1] / (a[i] - a[i - 1]))
            crossings.append(Double(i - 1) + frac)
        }
        guard crossings.count > 10, let first = crossings.first, let last = crossings.last else { return nil }
        return Double(crossings.count - 1) * rate / (last - first)
    }

    /// Median of per-100 ms frequencies: robust to a dropout (an underrun under CPU load).
    static func medianFrequency(_ x: [Float], rate: Double = rate) -> Double? {
        let window = Int(0.1 * rate)
        var values: [Double] = []
        var i = 0
        while i + window <= x.count {
            if rms(x[i..<(i + window)]) > 0.05, let f = frequency(x[i..<(i + window)], rate: rate) { values.append(f) }
            i += window
        }
        guard values.count >= 3 else { return nil }
        return values.sorted()[values.count / 2]
    }

    static func rms(_ x: ArraySlice<Float>) -> Float {
        guard !x.isEmpty else { return 0 }
        return (x.reduce(0) { $0 + $1 * $1 } / Float(x.count)).squareRoot()
    }
}
