import Foundation
import Testing
@testable import PitchDetection

@Suite struct HarmonicSignalTests {
    private func voicedFrames(_ frames: [PitchFrame], from a: Double, to b: Double) -> [PitchFrame] {
        frames.filter { $0.time >= a && $0.time <= b }
    }

    @Test func missingFundamentalGivesTheFundamental() {
        // Harmonics 2…6 of 150 Hz: no energy at 150 Hz, but the period is still 1/150 s.
        let rate = 48_000.0
        let signal = TestSignals.harmonic(seconds: 0.6, rate: rate, harmonics: [2, 3, 4, 5, 6]) { _ in 150 }
        let frames = voicedFrames(PitchDetector(sampleRate: rate).analyze(signal), from: 0.05, to: 0.55)
        #expect(frames.count > 40)
        for frame in frames {
            #expect(abs(TestSignals.cents(frame.frequency, 150)) < 20, "t=\(frame.time): \(frame.frequency) Hz")
        }
    }

    @Test func octaveJumpsAreTrackedBothWays() {
        let rate = 44_100.0
        let pitch: (Double) -> Double = { t in t < 0.5 ? 220 : (t < 1.0 ? 440 : 220) }
        let signal = TestSignals.harmonic(seconds: 1.5, rate: rate, pitch: pitch)
        let frames = PitchDetector(sampleRate: rate).analyze(signal)
        // Away from the jumps by more than half a window, every frame is on the right octave.
        for frame in frames where frame.time > 0.05 && frame.time < 1.45
            && abs(frame.time - 0.5) > 0.03 && abs(frame.time - 1.0) > 0.03 {
            #expect(frame.isVoiced, "t=\(frame.time) unvoiced")
            #expect(abs(TestSignals.cents(frame.frequency, pitch(frame.time))) < 20,
                    "t=\(frame.time): \(frame.frequency) Hz, expected \(pitch(frame.time))")
        }
    }

    @Test func vibratoIsFollowed() {
        // ±50 cents at 5.5 Hz around A3: each frame must be within 25 cents of the true curve.
        let rate = 48_000.0
        let pitch: (Double) -> Double = { t in 220 * pow(2, 0.5 / 12 * sin(2 * Double.pi * 5.5 * t)) }
        let signal = TestSignals.harmonic(seconds: 1.2, rate: rate, pitch: pitch)
        let frames = voicedFrames(PitchDetector(sampleRate: rate).analyze(signal), from: 0.05, to: 1.15)
        var worst = 0.0
        for frame in frames {
            #expect(frame.isVoiced)
            if frame.isVoiced { worst = max(worst, abs(TestSignals.cents(frame.frequency, pitch(frame.time)))) }
        }
        #expect(worst < 25, "worst vibrato error \(worst) cents")
    }

    @Test func highVoiceWithAStrongSecondHarmonicIsNotReadAnOctaveLow() {
        // 560 Hz whose 2nd harmonic (1120 Hz, inside the search range) dominates, as an "ee" or
        // "I" sung high does: the first dip is at half the period, and the harmonic-reading check
        // must move to the period itself (2 × the dip), not to 4 × (280 Hz: it looked only at
        // periods under its 330 Hz ceiling). Measured on the room evaluation's Space Invaders
        // singers before the fix: 82 of 87 octave errors were such one-octave-low readings.
        let rate = 44_100.0
        let parts: [(harmonic: Double, amplitude: Double, phase: Double)] = [(1, 0.3, 0), (2, 1, 0.5), (3, 0.2, 1), (4, 0.5, 1.5)]
        let signal = (0..<Int(rate)).map { i in
            Float(0.1 * parts.reduce(0.0) { $0 + $1.amplitude * sin(2 * Double.pi * $1.harmonic * 560 * Double(i) / rate + $1.phase) })
        }
        let frames = voicedFrames(PitchDetector(sampleRate: rate).analyze(signal), from: 0.05, to: 0.95)
        #expect(frames.count > 80)
        let wrong = frames.filter { !$0.isVoiced || abs(TestSignals.cents($0.frequency, 560)) > 20 }
        #expect(wrong.isEmpty, "\(wrong.count) of \(frames.count) frames off 560 Hz: \(wrong.prefix(5).map(\.frequency))")
    }

    @Test func silenceIsUnvoiced() {
        let frames = PitchDetector(sampleRate: 48_000).analyze([Float](repeating: 0, count: 48_000))
        #expect(frames.count == 100)
        #expect(frames.allSatisfy { !$0.isVoiced && $0.levelDb <= -119 })
    }

    @Test func whiteNoiseIsMostlyUnvoiced() {
        let rate = 48_000.0
        let frames = PitchDetector(sampleRate: rate).analyze(TestSignals.noise(count: 2 * Int(rate), amplitude: 0.3))
        let voiced = frames.filter(\.isVoiced).count
        #expect(Double(voiced) / Double(frames.count) < 0.05, "\(voiced) of \(frames.count) noise frames voiced")
    }

    @Test func quietSignalsBelowTheLevelGateAreUnvoiced() {
        let frames = PitchDetector(sampleRate: 16_000).analyze(TestSignals.sine(220, seconds: 0.5, rate: 16_000, amplitude: 0.0005))
        #expect(frames.allSatisfy { !$0.isVoiced })
    }
}
