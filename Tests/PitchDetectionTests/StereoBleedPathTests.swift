import CFFTW
import Foundation
import Testing
@testable import PitchDetection

/// The bleed path with a second played channel. A microphone hears the two speakers in its own
/// ratio; with vocal reduction they play L = side + bass, R = −side + bass, and one mono
/// reference (the left channel) cannot stand for both at the microphone's gains wherever the
/// side and the bass share bins. The second channel (the side) lets the fit match both.
@Suite struct StereoBleedPathTests {
    static let rate = 12_000.0
    static let length = 555, hop = 120, fftSize = 768
    static let lags = [0, 2, 4, 6, 9, 12, 16, 20, 25, 30, 40]

    /// Chords changing every `step` seconds, three partials each, from `roots`.
    static func chords(seconds: Double, roots: [Double], step: Double, amplitude: Double) -> [Float] {
        let n = Int(seconds * rate)
        return (0..<n).map { i in
            let t = Double(i) / rate
            let root = roots[Int(t / step) % roots.count]
            let s = sin(2 * .pi * root * t) + 0.7 * sin(2 * .pi * root * 1.26 * t) + 0.5 * sin(2 * .pi * root * 1.5 * t)
            return Float(amplitude * s)
        }
    }

    /// Two independent parts in the same range: what the speakers play as the bass (in both)
    /// and as the side (anti-phase), like a vocal-reduced output around its crossover.
    static func parts(seconds: Double) -> (bass: [Float], side: [Float]) {
        (chords(seconds: seconds, roots: [110, 131, 98, 123, 147, 87], step: 0.25, amplitude: 0.2),
         chords(seconds: seconds, roots: [165, 117, 139, 104, 156, 185], step: 0.37, amplitude: 0.2))
    }

    /// In the last 4 of 12 s: the share of the bleed's power the path leaves unexplained (in bins
    /// holding more than 2.5× the prediction) and the predicted power over the real.
    /// The mono reference is the tap's: the left channel while the centre is cancelled
    /// (`centreCancelled`), else (L + R) / 2. `second`: feed the side too.
    static func fit(left: [Float], right: [Float], micLeft: Float, micRight: Float, centreCancelled: Bool = true,
                    second: Bool) -> (unexplained: Double, predictedOverReal: Double) {
        let delay = Int(0.020 * rate)
        let mic = left.indices.map { i in i >= delay ? micLeft * left[i - delay] + micRight * right[i - delay] : 0 }
        let reference = centreCancelled ? left : zip(left, right).map { 0.5 * ($0 + $1) }
        let side = zip(left, right).map { 0.5 * ($0 - $1) }
        let aligned = { (x: [Float]) in [Float](repeating: 0, count: delay) + x.dropLast(delay) }
        let window = (0..<length).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0 + 1) / Double(length + 1))) }
        let micFFT = RealFFT(size: fftSize), referenceFFT = RealFFT(size: fftSize), sideFFT = RealFFT(size: fftSize)
        let path = ConvolutiveBleedPath(bins: fftSize / 2 + 1, lags: lags, smoothing: 0.995, ridge: 0.01, solveInterval: 4)
        let signals = [(micFFT, mic), (referenceFFT, aligned(reference)), (sideFFT, aligned(side))]
        var unexplained = 0.0, total = 0.0, predicted = 0.0
        var start = 0
        while start + length <= mic.count {
            for (fft, signal) in signals {
                for i in 0..<length { fft.input[i] = signal[start + i] * window[i] }
                for i in length..<fftSize { fft.input[i] = 0 }
                fft.forward()
            }
            path.update(backing: referenceFFT.spectrum, second: second ? UnsafePointer(sideFFT.spectrum) : nil, mic: micFFT.spectrum)
            if Double(start) / rate > 8 {
                for k in 0..<(fftSize / 2 + 1) {
                    let p = Double(micFFT.spectrum[k].0 * micFFT.spectrum[k].0 + micFFT.spectrum[k].1 * micFFT.spectrum[k].1)
                    total += p
                    predicted += Double(path.predictedPower[k])
                    if p > 2.5 * Double(path.predictedPower[k]) { unexplained += p }
                }
            }
            start += hop
        }
        return (unexplained / total, predicted / total)
    }

    @Test func bothChannelsExplainAMicrophoneHearingAVocalReducedOutputInItsOwnRatio() {
        let (bass, side) = Self.parts(seconds: 12)
        let left = zip(side, bass).map { $0 + $1 }, right = zip(side, bass).map { $1 - $0 }
        let mono = Self.fit(left: left, right: right, micLeft: 0.6, micRight: 0.4, second: false)
        let stereo = Self.fit(left: left, right: right, micLeft: 0.6, micRight: 0.4, second: true)
        print("vocal-reduced output heard 0.6 L + 0.4 R: unexplained \(mono.unexplained) mono, \(stereo.unexplained) two-channel; predicted/real \(mono.predictedOverReal), \(stereo.predictedOverReal)")
        #expect(mono.unexplained > 0.1, "the mono reference should fail here: \(mono)")
        #expect(stereo.unexplained < 0.05, "two channels: \(stereo)")
        #expect(abs(stereo.predictedOverReal - 1) < 0.1, "two channels: \(stereo)")
    }

    @Test func aMonoOutputFitsExactlyAsWithOneChannel() {
        let (bass, side) = Self.parts(seconds: 12)
        let both = zip(side, bass).map { $0 + $1 }
        // L = R: the side is silent, so the second channel's tap stays out of every solve.
        let mono = Self.fit(left: both, right: both, micLeft: 0.6, micRight: 0.4, second: false)
        let stereo = Self.fit(left: both, right: both, micLeft: 0.6, micRight: 0.4, second: true)
        #expect(mono.unexplained == stereo.unexplained && mono.predictedOverReal == stereo.predictedOverReal)
    }

    @Test func nearlyIdenticalChannelsStayWellConditionedAndNoWorse() {
        let (bass, side) = Self.parts(seconds: 12)
        let both = zip(side, bass).map { $0 + $1 }
        // A wide mix played as it is: the right speaker 1 sample later and 1 % quieter, so the
        // side is small and almost collinear with the mix.
        let left = both, right = both.indices.map { $0 > 0 ? 0.99 * both[$0 - 1] : 0 }
        let mono = Self.fit(left: left, right: right, micLeft: 0.7, micRight: 0.3, centreCancelled: false, second: false)
        let stereo = Self.fit(left: left, right: right, micLeft: 0.7, micRight: 0.3, centreCancelled: false, second: true)
        print("near-identical channels: unexplained \(mono.unexplained) mono, \(stereo.unexplained) two-channel; predicted/real \(mono.predictedOverReal), \(stereo.predictedOverReal)")
        #expect(stereo.predictedOverReal.isFinite && abs(stereo.predictedOverReal - 1) < 0.1, "\(stereo)")
        #expect(stereo.unexplained <= mono.unexplained + 0.01, "two channels \(stereo), mono \(mono)")
    }
}
