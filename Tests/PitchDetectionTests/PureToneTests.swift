import Testing
@testable import PitchDetection

@Suite struct PureToneTests {
    @Test(arguments: [48_000.0, 44_100.0, 16_000.0])
    func tonesAcrossTheRangeAreWithinTenCents(rate: Double) {
        let detector = PitchDetector(sampleRate: rate)
        for hz in [65.0, 82.4, 110, 196, 261.6, 440, 659.3, 880, 1046.5, 1100] {
            let frames = detector.analyze(TestSignals.sine(hz, seconds: 0.5, rate: rate))
            // Skip the frames whose window reaches into the silence before and after the tone.
            let inner = frames.filter { $0.time > 0.05 && $0.time < 0.45 }
            #expect(!inner.isEmpty)
            for frame in inner {
                #expect(frame.isVoiced, "\(hz) Hz at \(rate) Hz, t=\(frame.time) unvoiced (clarity \(frame.clarity))")
                if frame.isVoiced {
                    let error = TestSignals.cents(frame.frequency, hz)
                    #expect(abs(error) < 10, "\(hz) Hz at \(rate) Hz: \(frame.frequency) Hz (\(error) cents)")
                }
            }
        }
    }

    @Test func framesAreOnAFixedHopStartingAtZero() {
        for rate in [48_000.0, 44_100.0, 16_000.0] {
            let detector = PitchDetector(sampleRate: rate)
            let frames = detector.analyze(TestSignals.sine(220, seconds: 1, rate: rate))
            #expect(frames.count == 100)
            for (k, frame) in frames.enumerated() {
                #expect(abs(frame.time - Double(k) * 0.01) < 1e-9)
            }
        }
    }
}
