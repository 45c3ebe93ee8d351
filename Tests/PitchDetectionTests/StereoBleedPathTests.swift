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
        var power = UnexplainedBleedPower()
        var start = 0
        while start + length <= mic.count {
            for (fft, signal) in signals {
                for i in 0..<length { fft.input[i] = signal[start + i] * window[i] }
                for i in length..<fftSize { fft.input[i] = 0 }
                fft.forward()
            }
            path.update(backing: referenceFFT.spectrum, second: second ? UnsafePointer(sideFFT.spectrum) : nil, mic: micFFT.spectrum)
            if Double(start) / rate > 8 {
                power.add(real: micFFT.spectrum, predicted: path.predictedPower, bins: fftSize / 2 + 1)
            }
            start += hop
        }
        return power.shares
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

    /// A sung line over a stereo backing (a bass in both speakers, a chord only in the left, an
    /// arpeggio only in the right), heard 0.7 L + 0.3 R, 25 ms late, about as loud as the voice.
    /// `reduce`: the speakers play it vocal-reduced-like (L = side + bass, R = −side + bass).
    static func sungOverStereo(rate: Double, reduce: Bool) -> (mic: [Float], reference: [Float], side: [Float], truth: (Double) -> Double) {
        let (voice, truth, seconds) = TestSignals.sungLine([196, 220, 247, 262, 294, 330, 294, 262, 247, 220], rate: rate)
        let bass = TestSignals.harmonic(seconds: seconds, rate: rate, amplitude: 0.3) { t in Int(t / 1.2) % 2 == 0 ? 98 : 110 }
        let chord = TestSignals.harmonic(seconds: seconds, rate: rate, amplitude: 0.3) { t in Int(t / 0.9) % 2 == 0 ? 392 : 349 }
        let arpeggio = TestSignals.harmonic(seconds: seconds, rate: rate, amplitude: 0.3) { t in [523, 659, 784][Int(t / 0.3) % 3] }
        var left = [Float](repeating: 0, count: voice.count), right = left
        for i in voice.indices {
            if reduce {
                let side = 0.5 * (chord[i] - arpeggio[i])
                left[i] = bass[i] + side
                right[i] = bass[i] - side
            } else {
                left[i] = bass[i] + chord[i]
                right[i] = bass[i] + arpeggio[i]
            }
        }
        let delay = Int(0.025 * rate)
        let mic = voice.indices.map { i in voice[i] + (i >= delay ? 0.7 * left[i - delay] + 0.3 * right[i - delay] : 0) }
        let reference = reduce ? left : zip(left, right).map { 0.5 * ($0 + $1) }
        return (mic, reference, zip(left, right).map { 0.5 * ($0 - $1) }, truth)
    }

    /// Share of frames after the first 0.6 s right about voicing and, when voiced, within 50 cents.
    static func accuracy(_ frames: [PitchFrame], truth: (Double) -> Double) -> Double {
        let judged = frames.filter { $0.time > 0.6 }
        let right = judged.filter { frame in
            let expected = truth(frame.time)
            if expected == 0 { return !frame.isVoiced }
            return frame.isVoiced && abs(1200 * log2(Double(frame.frequency) / expected)) <= 50
        }
        return Double(right.count) / Double(judged.count)
    }

    @Test(arguments: [false, true]) func aSingerOverAStereoBackingReadsNoWorseWithTheSide(reduce: Bool) {
        let rate = 16_000.0
        let (mic, reference, side, truth) = Self.sungOverStereo(rate: rate, reduce: reduce)
        let mono = Self.accuracy(PitchDetector(sampleRate: rate).analyze(mic, backing: reference), truth: truth)
        let stereo = Self.accuracy(PitchDetector(sampleRate: rate).analyze(mic, backing: reference, backingSecond: side), truth: truth)
        print("singer over a stereo backing (reduce \(reduce)), heard 0.7 L + 0.3 R: accuracy \(mono) mono reference, \(stereo) mono + side")
        #expect(stereo >= mono - 0.02, "mono + side \(stereo), mono \(mono)")
        #expect(stereo >= 0.8, "mono + side \(stereo)")
    }
}
