import CFFTW
import Foundation
import Testing
@testable import PitchDetection

/// The multi-frame bleed path against a known room: a backing of chords that change every
/// 0.25 s, heard through an exponentially decaying reverberation much longer than the 46 ms
/// analysis window (RT60 0.5 s), plus an independent "voice".
@Suite struct ConvolutiveBleedPathTests {
    static let rate = 12_000.0
    static let length = 555, hop = 120, fftSize = 768

    /// Chords (three partials each) changing every 0.25 s.
    static func backing(seconds: Double) -> [Float] {
        let roots: [Double] = [220, 262, 196, 247, 294, 175]
        let n = Int(seconds * rate)
        return (0..<n).map { i in
            let t = Double(i) / rate
            let root = roots[Int(t / 0.25) % roots.count]
            let s = sin(2 * .pi * root * t) + 0.7 * sin(2 * .pi * root * 1.26 * t) + 0.5 * sin(2 * .pi * root * 1.5 * t)
            return Float(0.2 * s)
        }
    }

    /// The backing through a direct path (20 ms) plus a diffuse tail: noise under an
    /// exponential envelope with RT60 0.5 s, 12 dB louder in total than the direct sound.
    static func room(_ x: [Float]) -> [Float] {
        let delay = Int(0.020 * rate), tailLength = Int(0.6 * rate)
        var response = [Float](repeating: 0, count: delay + tailLength)
        response[delay] = 1
        let noise = TestSignals.noise(count: tailLength, amplitude: 1, seed: 7)
        var tailEnergy: Float = 0
        for i in 1..<tailLength {
            let envelope = Float(pow(10, -3 * Double(i) / rate / 0.5))  // −60 dB in 0.5 s (amplitude)
            response[delay + i] = noise[i] * envelope
            tailEnergy += response[delay + i] * response[delay + i]
        }
        let scale = (pow(10, 1.2) / tailEnergy).squareRoot()
        for i in 1..<tailLength { response[delay + i] *= scale }
        return TestSignals.throughRoom(x, taps: response.enumerated().filter { $0.element != 0 }.map { ($0.offset, $0.element) })
    }

    /// In the last 4 s, for a path over `lags`: the share of the bleed's power left unexplained
    /// (in bins holding more than 2.5× the prediction), and the predicted power over the real.
    static func fit(lags: [Int], voice: [Float]?) -> (unexplained: Double, predictedOverReal: Double) {
        let b = backing(seconds: 12)
        let bleed = room(b)
        let mic = voice.map { v in zip(bleed, v).map { $0 + $1 } } ?? bleed
        let window = (0..<length).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0 + 1) / Double(length + 1))) }
        let micFFT = RealFFT(size: fftSize), backingFFT = RealFFT(size: fftSize), bleedFFT = RealFFT(size: fftSize)
        let path = ConvolutiveBleedPath(bins: fftSize / 2 + 1, lags: lags, smoothing: 0.995, ridge: 0.01, solveInterval: 4)
        var power = UnexplainedBleedPower()
        var start = 0
        while start + length <= b.count {
            for (fft, signal) in [(micFFT, mic), (backingFFT, b), (bleedFFT, bleed)] {
                for i in 0..<length { fft.input[i] = signal[start + i] * window[i] }
                for i in length..<fftSize { fft.input[i] = 0 }
                fft.forward()
            }
            path.update(backing: backingFFT.spectrum, mic: micFFT.spectrum)
            if Double(start) / rate > 8 {
                power.add(real: bleedFFT.spectrum, predicted: path.predictedPower, bins: fftSize / 2 + 1)
            }
            start += hop
        }
        return power.shares
    }

    @Test func pastFramesExplainTheReverberantBleed() {
        let single = Self.fit(lags: [0], voice: nil).unexplained
        let multi = Self.fit(lags: [0, 2, 4, 6, 9, 12, 16, 20, 25, 30, 40], voice: nil).unexplained
        #expect(multi < 0.15, "multi-frame path leaves \(multi) of the bleed unexplained")
        #expect(multi < single / 2, "multi-frame \(multi) against single-frame \(single)")
    }

    @Test func anIndependentVoiceDoesNotBiasThePath() {
        // A voice 6 dB louder than the bleed, unrelated to the backing (noise-like phase).
        let voice = TestSignals.noise(count: Int(12 * Self.rate), amplitude: 0.25, seed: 99)
        let (unexplained, ratio) = Self.fit(lags: [0, 2, 4, 6, 9, 12, 16, 20, 25, 30, 40], voice: voice)
        #expect(unexplained < 0.2, "with a voice, the multi-frame path leaves \(unexplained) of the bleed unexplained")
        #expect(ratio > 0.7 && ratio < 1.4, "with a voice, predicted / real bleed power \(ratio)")
    }
}
