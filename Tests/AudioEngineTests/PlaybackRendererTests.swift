@testable import AudioEngine
import Foundation
import Testing

/// The render path without PulseAudio: what the write callback would produce.
@Suite struct PlaybackRendererTests {
    func makeRenderer(_ samples: [Float]) -> (PlaybackRenderer, Transport, PlaybackClock) {
        let clock = PlaybackClock()
        let transport = Transport()
        let renderer = PlaybackRenderer(sampleRate: TestSignals.rate, clock: clock, transport: transport)
        renderer.track = TrackSource(left: samples, right: samples, sampleRate: TestSignals.rate)
        renderer.trackChanged()
        return (renderer, transport, clock)
    }

    func render(_ renderer: PlaybackRenderer, seconds: Double) -> [Float] {
        let frames = Int(seconds * TestSignals.rate)
        var out = [Float](repeating: 0, count: frames * 2)
        var done = 0
        out.withUnsafeMutableBufferPointer { buf in
            while done < frames {
                let n = min(480, frames - done)
                renderer.render(into: buf.baseAddress! + done * 2, frames: n)
                done += n
            }
        }
        return stride(from: 0, to: out.count, by: 2).map { out[$0] }
    }

    @Test func keyPlusTwoShiftsA440ToB493() throws {
        let (renderer, transport, _) = makeRenderer(TestSignals.sine(440, seconds: 3))
        transport.key.store(2, ordering: .releasing)
        transport.request(.playing)
        let out = render(renderer, seconds: 2)
        let f = try #require(TestSignals.frequency(out[24_000..<96_000]))
        #expect(abs(f - 493.88) < 1.5, "measured \(f) Hz")
    }

    @Test func pausedRendersSilenceAndPositionHolds() {
        let (renderer, transport, clock) = makeRenderer(TestSignals.sine(440, seconds: 3))
        transport.request(.playing)
        _ = render(renderer, seconds: 0.5)
        transport.request(.paused)
        let out = render(renderer, seconds: 0.5)
        #expect(TestSignals.rms(out[2400...]) == 0)
        let m = clock.mediaTime(atOutputFrame: Double(renderer.outputFrame))!
        #expect(abs(m - 0.5) < 0.01, "paused at \(m)")
    }

    @Test func loopJumpsBackToStart() {
        let (renderer, transport, clock) = makeRenderer(TestSignals.sine(440, seconds: 5))
        transport.setLoop(1.0...1.5)
        transport.requestSeek(to: 1.0)
        transport.request(.playing)
        _ = render(renderer, seconds: 1.2)
        let m = clock.mediaTime(atOutputFrame: Double(renderer.outputFrame))!
        #expect(m >= 1.0 && m <= 1.5, "looping position \(m)")
        // 1.2 s of output inside a 0.5 s loop: two jumps, so 1.0 + 1.2 − 2 × 0.5 = 1.2.
        #expect(abs(m - 1.2) < 0.02, "position \(m)")
    }

    @Test func trackEndStops() {
        let (renderer, transport, clock) = makeRenderer(TestSignals.sine(440, seconds: 0.5))
        transport.request(.playing)
        _ = render(renderer, seconds: 1)
        #expect(transport.requestedState == .stopped)
        let m = clock.mediaTime(atOutputFrame: Double(renderer.outputFrame))!
        #expect(abs(m - 0.5) < 0.001)
    }
}

extension PlaybackRendererTests {
    /// Clicks come out of the stretcher at the output frame the clock maps their media time to.
    @Test func clickTimingThroughStretcherMatchesClock() {
        let (renderer, transport, clock) = makeRenderer(TestSignals.clicks(period: 0.25, seconds: 10))
        var errors: [Double] = []
        for target in [1.1, 3.37, 5.02, 7.9] {
            transport.requestSeek(to: target)
            transport.request(.playing)
            let startFrame = renderer.outputFrame
            let out = render(renderer, seconds: 0.4)
            // Skip the old audio's fade-out; find the first click onset after the seek.
            guard let onset = (Int(0.02 * TestSignals.rate)..<out.count).first(where: { abs(out[$0]) >= 0.1 }) else { continue }
            let heard = clock.mediaTime(atOutputFrame: Double(startFrame) + Double(onset))!
            let click = (heard / 0.25).rounded() * 0.25
            errors.append(heard - click)
        }
        print("stretcher click errors ms:", errors.map { $0 * 1000 })
        #expect(errors.count == 4)
        #expect(errors.allSatisfy { abs($0) < 0.002 }, "\(errors)")
    }
}

extension PlaybackRendererTests {
    /// "Changing key or tempo while playing causes no gap or click longer than one buffer":
    /// a steady 440 Hz sine, rendered in 10 ms blocks (the write callback's `minreq`) while key
    /// and tempo change every 0.3 s, never falls silent (no 10 ms window below 20 % of the steady
    /// level), dips below half its level for at most one 40 ms buffer (`bufferDuration`) in a
    /// row, and never jumps between samples more than a sine of the highest pitch reached can.
    /// (Returning to key 0 at tempo 1 makes Rubber Band R3 realign its phases to the input, a
    /// 10–20 ms dip on a pure sine; see docs/audio-engine.md.)
    @Test func liveKeyAndTempoChangesLeaveNoGapOrClick() throws {
        let (renderer, transport, _) = makeRenderer(TestSignals.sine(440, seconds: 12))
        transport.request(.playing)
        var out = render(renderer, seconds: 1)
        let steady = TestSignals.rms(out[24_000...])
        let changes: [(key: Int, tempo: Double)] = [(2, 1), (5, 1), (5, 1.5), (-7, 1.5), (-7, 0.5), (12, 0.8), (0, 1), (24, 1), (-24, 1.2), (0, 1)]
        for change in changes {
            transport.key.store(change.key, ordering: .releasing)
            transport.tempo = change.tempo
            out += render(renderer, seconds: 0.3)
        }
        out += render(renderer, seconds: 0.5)
        let window = 480
        let levels = stride(from: 24_000, to: out.count - window, by: window).map { TestSignals.rms(out[$0..<$0 + window]) / steady }
        var longestDip = 0, run = 0
        for level in levels {
            run = level < 0.5 ? run + 1 : 0
            longestDip = max(longestDip, run)
        }
        let envelope = levels.map { Int(($0 * 100).rounded()) }
        #expect(levels.min()! > 0.2, "a 10 ms window fell silent: levels % \(envelope)")
        #expect(longestDip <= 4, "below half level for \(longestDip) × 10 ms: levels % \(envelope)")
        // 440 Hz × 2^(24/12) = 1760 Hz at most; a sine of amplitude a moves ≤ 2π f a / rate per sample.
        let amplitude = out[24_000...].map(abs).max()!
        let limit = Float(2 * Double.pi * 1760 / TestSignals.rate) * amplitude * 1.5
        var worst: Float = 0
        for i in 24_001..<out.count { worst = max(worst, abs(out[i] - out[i - 1])) }
        #expect(worst < limit, "largest step \(worst), a click; limit \(limit)")
    }
}
