@testable import AudioEngine
import Foundation
import Testing

/// The tap of rendered output: it holds exactly what the renderer wrote, by output frame,
/// across seeks, pauses and key changes, and never serves frames it no longer holds.
@Suite struct RenderedOutputTapTests {
    /// Renders `seconds` in callback-sized blocks; returns the mono mix of what was written.
    func render(_ renderer: PlaybackRenderer, seconds: Double, block: Int = 441) -> [Float] {
        let frames = Int(seconds * TestSignals.rate)
        var out = [Float](repeating: 0, count: frames * 2)
        var done = 0
        out.withUnsafeMutableBufferPointer { buf in
            while done < frames {
                let n = min(block, frames - done)
                renderer.render(into: buf.baseAddress! + done * 2, frames: n)
                done += n
            }
        }
        return stride(from: 0, to: out.count, by: 2).map { 0.5 * (out[$0] + out[$0 + 1]) }
    }

    func tapped(_ tap: RenderedOutputTap, from start: Int64, count: Int) -> [Float] {
        var got = [Float](repeating: .nan, count: count)
        got.withUnsafeMutableBufferPointer { _ = tap.copy(from: start, count: count, into: $0.baseAddress!) }
        return got
    }

    @Test func holdsWhatWasRenderedAcrossASeekAPauseAndAKeyChange() {
        let clock = PlaybackClock()
        let transport = Transport()
        let renderer = PlaybackRenderer(sampleRate: TestSignals.rate, clock: clock, transport: transport)
        let left = TestSignals.sine(330, seconds: 6), right = TestSignals.sine(550, seconds: 6, amplitude: 0.2)
        renderer.track = TrackSource(left: left, right: right, sampleRate: TestSignals.rate)
        renderer.trackChanged()
        transport.request(.playing)
        var written = render(renderer, seconds: 0.7)
        transport.requestSeek(to: 3.0)
        written += render(renderer, seconds: 0.6)
        transport.request(.paused)
        written += render(renderer, seconds: 0.3)
        transport.key.store(3, ordering: .releasing)
        transport.request(.playing)
        written += render(renderer, seconds: 0.6)
        let tap = renderer.tap
        #expect(tap.endFrame == Int64(written.count))
        let got = tapped(tap, from: 0, count: written.count)
        #expect(got == written, "the tap differs from the rendered output")
        // The paused stretch is silence in both; the key-shifted part is not.
        #expect(TestSignals.rms(got[Int(1.4 * TestSignals.rate)..<Int(1.55 * TestSignals.rate)]) == 0)
        #expect(TestSignals.rms(got[Int(1.9 * TestSignals.rate)...]) > 0.1)
    }

    @Test func framesNotYetWrittenOrNoLongerHeldReadAsSilence() {
        let tap = RenderedOutputTap(sampleRate: 1000, seconds: 1)  // 1024 frames, 512 served
        let stereo = (0..<1500).flatMap { [Float($0 + 1), Float($0 + 1)] }
        stereo.withUnsafeBufferPointer { tap.write(interleaved: $0.baseAddress!, frames: 1500, at: 0) }
        var out = [Float](repeating: .nan, count: 8)
        let complete = out.withUnsafeMutableBufferPointer { tap.copy(from: 1496, count: 8, into: $0.baseAddress!) }
        #expect(!complete)
        #expect(out == [1497, 1498, 1499, 1500, 0, 0, 0, 0])
        let old = out.withUnsafeMutableBufferPointer { tap.copy(from: 984, count: 8, into: $0.baseAddress!) }
        #expect(!old)
        #expect(out == [0, 0, 0, 0, 989, 990, 991, 992])
        let inside = out.withUnsafeMutableBufferPointer { tap.copy(from: 1200, count: 8, into: $0.baseAddress!) }
        #expect(inside)
        #expect(out == (1201...1208).map(Float.init))
    }
}
