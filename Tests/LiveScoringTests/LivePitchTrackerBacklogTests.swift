@testable import AudioEngine
import Foundation
import LiveScoring
import Scoring
import Testing

/// A pitch worker that fell behind (its thread held up, or a detector slower than real time on
/// a starved CPU) analyses its backlog in slices, so the room judges lines between them; while
/// behind, lines wait for their audio instead of being closed at `maximumLag` without it.
@Suite struct LivePitchTrackerBacklogTests {
    static let rate = 48_000.0

    /// A clock playing media time t at host time 100 + t, and a microphone that has captured
    /// `seconds` of a 220 Hz tone from host time 100 on, none of it read yet.
    static func backlog(seconds: Double) -> (LivePitchTracker, PlaybackClock) {
        let clock = PlaybackClock()
        clock.setSampleRate(rate)
        clock.append(ClockCheckpoint(outputFrame: 0, mediaTime: 0, rate: 1))
        clock.setRunning(true)
        clock.publish(playedFrame: 0, hostTime: 100, written: Int64(rate * 60))
        let channel = CaptureChannel(index: 0, sampleRate: rate, ringSeconds: 8)
        let tracker = LivePitchTracker(channel: channel, clock: clock)
        let tone = (0..<Int(rate * seconds)).map { Float(0.3 * sin(2 * Double.pi * 220 * Double($0) / rate)) }
        _ = channel.stamps.write(CaptureStamp(frame: 0, hostTime: 100))
        _ = tone.withUnsafeBufferPointer { channel.samples.write($0) }
        return (tracker, clock)
    }

    @Test func aBacklogIsAnalysedInSlicesAndLinesWaitForIt() throws {
        let (tracker, _) = Self.backlog(seconds: 2)
        let first = tracker.poll()
        // One slice (0.25 s of audio), not the whole 2 s.
        #expect(!first.isEmpty)
        #expect((first.last?.time ?? 9) < 0.3, "poll analysed \(first.last?.time ?? 0) s in one go")
        #expect(tracker.isBehind)
        // Behind: the room at 2.0 s judges up to what was analysed, not 2.0 − maximumLag.
        let analysed = try #require(first.last?.time)
        #expect(tracker.judgeablePosition(at: 2.0) == analysed)

        var all = first
        for _ in 0..<20 where tracker.isBehind { all += tracker.poll() }
        #expect(!tracker.isBehind)
        #expect(tracker.poll().isEmpty)
        // Every slice continues the last: the whole backlog, in order, nothing skipped.
        let steps = zip(all, all.dropFirst()).map { $1.time - $0.time }
        #expect(steps.allSatisfy { abs($0 - 0.01) < 0.0005 }, "frames not every 10 ms")
        #expect((all.last?.time ?? 0) > 1.9)
        let voiced = all.filter { $0.midi.map { abs($0 - 57) < 0.5 } ?? false }.count
        #expect(Double(voiced) > 0.9 * Double(all.count), "the tone reads as A3 throughout")
        // Caught up: a silent microphone's lines close at `maximumLag` again.
        #expect(tracker.judgeablePosition(at: 5.0) == 5.0 - tracker.maximumLag)
    }
}
