@testable import AudioEngine
@testable import LiveScoring
import Foundation
import Testing

/// Capture host time → output frame played then (the playback clock) → that frame of the
/// rendered output, at the microphone's rate, `lead` ahead, continuous across blocks.
@Suite struct PlayedBackingAlignerTests {
    static let outRate = 48_000.0

    /// A tap whose frame f holds f mod 10 000 (so values name their frame), and a clock that
    /// plays output frame 10 000 at host time 100.
    func rig(frames: Int = 60_000) -> (RenderedOutputTap, PlaybackClock) {
        let tap = RenderedOutputTap(sampleRate: Self.outRate, seconds: 4)
        let stereo = (0..<frames).flatMap { f -> [Float] in let v = Float(f % 10_000); return [v, v] }
        stereo.withUnsafeBufferPointer { tap.write(interleaved: $0.baseAddress!, frames: frames, at: 0) }
        let clock = PlaybackClock()
        clock.setSampleRate(Self.outRate)
        clock.setRunning(true)
        clock.publish(playedFrame: 10_000, hostTime: 100, written: Int64(frames))
        return (tap, clock)
    }

    /// Frames `start ..< start + count` of the rig's tap, `step` output frames per sample.
    func expected(from start: Int, count: Int, step: Int = 1) -> [Float] {
        (0..<count).map { i -> Float in Float((start + step * i) % 10_000) }
    }

    func fill(_ aligner: PlayedBackingAligner, count: Int, at host: Double?) -> [Float] {
        var out = [Float](repeating: .nan, count: count)
        out.withUnsafeMutableBufferPointer { aligner.fill($0.baseAddress!, count: count, firstHostTime: host) }
        return out
    }

    @Test func referenceIsWhatPlayedAtCaptureTimeLeadAheadAndContinuous() {
        let (tap, clock) = rig()
        let aligner = PlayedBackingAligner(tap: tap, clock: clock, micRate: Self.outRate, maxBlock: 1024)
        let lead = Int(aligner.lead)
        #expect(lead == 960)
        // Captured at host 100.125: frame 10 000 + 6 000 was playing; the reference starts 20 ms after it.
        let first = fill(aligner, count: 480, at: 100.125)
        #expect(first == expected(from: 16_000 + lead, count: 480))
        // The next block's stamp is 0.1 ms off (clock jitter): the reference stays continuous.
        let second = fill(aligner, count: 480, at: 100.1351)
        #expect(second == expected(from: 16_000 + lead + 480, count: 480))
        // 100 ms off (a stall, a seek of the stream): it re-anchors on the clock.
        let third = fill(aligner, count: 480, at: 100.25)
        #expect(third == expected(from: 22_000 + lead, count: 480))
        // No capture time: silence, then a fresh anchor.
        #expect(fill(aligner, count: 16, at: nil) == [Float](repeating: 0, count: 16))
    }

    @Test func resamplesToTheMicrophoneRate() {
        let (tap, clock) = rig()
        let aligner = PlayedBackingAligner(tap: tap, clock: clock, micRate: 16_000, maxBlock: 1024)
        let got = fill(aligner, count: 160, at: 100.125)
        // Three output frames per microphone sample.
        #expect(got == expected(from: 16_000 + 960, count: 160, step: 3))
        // 44.1 kHz: interpolated between neighbouring frames.
        let (tap2, clock2) = rig()
        let a441 = PlayedBackingAligner(tap: tap2, clock: clock2, micRate: 44_100, maxBlock: 1024)
        let got441 = fill(a441, count: 441, at: 100.125)
        let step = Self.outRate / 44_100
        for i in stride(from: 0, to: 441, by: 40) {
            let want = Double(16_000 + 960) + Double(i) * step
            #expect(abs(Double(got441[i]) - want.truncatingRemainder(dividingBy: 10_000)) < 1e-2, "sample \(i)")
        }
    }
}
