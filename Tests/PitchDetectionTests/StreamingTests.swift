import Testing
@testable import PitchDetection

@Suite struct StreamingTests {
    @Test func oddChunkSizesGiveTheSameFramesAsOneShotAnalysis() {
        let rate = 44_100.0
        let signal = TestSignals.harmonic(seconds: 1.0, rate: rate) { t in 180 + 120 * t }
            + TestSignals.noise(count: 4410, amplitude: 0.05)
        let oneShot = PitchDetector(sampleRate: rate).analyze(signal)
        let detector = PitchDetector(sampleRate: rate)
        var streamed: [PitchFrame] = []
        var start = 0
        let chunkSizes = [1, 7, 128, 333, 1000, 4095, 2]
        var i = 0
        signal.withUnsafeBufferPointer { all in
            while start < all.count {
                let n = min(chunkSizes[i % chunkSizes.count], all.count - start)
                detector.process(UnsafeBufferPointer(rebasing: all[start..<(start + n)])) { streamed.append($0) }
                start += n
                i += 1
            }
        }
        // Streaming emits a frame only once its whole window has arrived: a prefix of analyze.
        #expect(streamed.count > 80)
        #expect(streamed == Array(oneShot.prefix(streamed.count)))
    }

    @Test(arguments: [48_000.0, 44_100.0, 16_000.0])
    func framesAreEmittedAsSoonAsTheirLastSampleArrives(rate: Double) {
        let detector = PitchDetector(sampleRate: rate)
        // The latency budget: a frame describes samples up to `time + lookahead` and is
        // emitted in the same call; the lookahead itself must stay within 30 ms.
        #expect(detector.lookaheadSeconds <= 0.030)
        let signal = TestSignals.sine(300, seconds: 0.3, rate: rate)
        var pushed = 0
        var emittedAt: [Int] = []
        for sample in signal {
            pushed += 1
            [sample].withUnsafeBufferPointer { one in
                detector.process(one) { frame in
                    emittedAt.append(pushed)
                    let lastSample = Int((frame.time * rate).rounded()) + detector.lookaheadSamples
                    // `pushed` samples cover indices 0..<pushed: the frame's last sample is the newest.
                    #expect(lastSample == pushed - 1)
                }
            }
        }
        #expect(emittedAt.count == (signal.count - 1 - detector.lookaheadSamples) / detector.hopSamples + 1)
    }

    @Test func resetStartsTheClockAgain() {
        let detector = PitchDetector(sampleRate: 16_000)
        let first = detector.analyze(TestSignals.sine(330, seconds: 0.2, rate: 16_000))
        let second = detector.analyze(TestSignals.sine(330, seconds: 0.2, rate: 16_000))
        #expect(first == second)
    }
}
