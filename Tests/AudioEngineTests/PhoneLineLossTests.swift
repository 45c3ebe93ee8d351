@testable import AudioEngine
import EventServer
import Foundation
@testable import KaraokeRoom
@testable import LiveScoring
import Scoring
import SongFormats
import Synchronization
import Testing
import TestSupport

/// Which of a phone's lines are stored marked lost (issue 17, docs/phone-mics.md "Lines sung
/// without audio"): the ones judged without their audio, decided by the audio itself. A phone
/// whose frames come late (a stalled server, a slow network) but before `PhoneMicSlot.lineWait`
/// is judged on what it sang; one that stops sending, or whose stream has a gap, is marked.
@Suite struct PhoneLineLossTests {
    static let phoneRate = PhoneAudioFrame.sampleRate

    @Test func aLineIsHeardWhenItsAudioWasAnalysedThroughItsEnd() {
        #expect(!ClosedLine.wasHeard(judgedEnd: 2, micDelay: 0, analysedThrough: nil))
        #expect(ClosedLine.wasHeard(judgedEnd: 2, micDelay: 0, analysedThrough: 2.3))
        #expect(ClosedLine.wasHeard(judgedEnd: 2, micDelay: 0, analysedThrough: 1.96), "the last hop is not waited for")
        #expect(!ClosedLine.wasHeard(judgedEnd: 2, micDelay: 0, analysedThrough: 1.7))
        // A late microphone's audio for the line's end comes `micDelay` later.
        #expect(!ClosedLine.wasHeard(judgedEnd: 2, micDelay: 0.2, analysedThrough: 2.1))
        #expect(ClosedLine.wasHeard(judgedEnd: 2, micDelay: 0.2, analysedThrough: 2.2))
    }

    /// A running clock (media 0 at host `start`), a seated phone slot whose sample i was captured
    /// at host `start + i / 24 000`, and its pitch worker on a two-line song: line 1 sung
    /// 0–0.5 s, line 2 0.7–1.2 s. Returns what closed, in order.
    final class PhoneRun {
        let clock = PlaybackClock()
        let slot = PhoneMicSlot(slot: 0)
        let start: Double
        let worker: LiveSingerWorker
        let closed = Closed()

        final class Closed: Sendable {
            let lines = Mutex<[ClosedLine]>([])
        }

        /// `followsTiming`: the run follows the slot's `timingCorrection`, as a calibrated phone seat's run does.
        init(followsTiming: Bool = false) throws {
            let rate = PhoneMicSlot.sampleRate
            clock.setSampleRate(rate)
            clock.append(ClockCheckpoint(outputFrame: 0, mediaTime: 0, rate: 1))
            clock.setRunning(true)
            start = HostClock.now()
            clock.publish(playedFrame: 0, hostTime: start, written: Int64(rate * 60))
            slot.setSeated(true)
            slot.setClockOffset(start)
            let song = try UltraStarReader.read(text: """
                #TITLE:Loss
                #ARTIST:Tests
                #BPM:300
                #GAP:0
                : 0 10 0 la
                - 12
                : 14 10 0 la
                E
                """, path: "loss.txt")
            let session = try ScoringSession(song: song, configuration: ScoringConfiguration(micDelay: 0))
            let closed = closed
            // The lag a phone seat really gets (`LiveMicrophone(phone:)`), not one picked for the test.
            worker = LiveSingerWorker(
                channel: slot.channel, clock: clock, backing: nil, pitchStride: 2,
                output: .init(samples: { _, _ in }, lines: { _, lines in closed.lines.withLock { $0 += lines } }, jumped: { _ in }),
                maximumLag: LiveMicrophone(phone: slot).maximumLag)
            var run = LiveSingerRun(singer: 0, name: "Ann", part: 0, session: session, recorder: nil,
                                    fromStart: true, startPosition: 0)
            // As `LiveRoomSession` wires a phone seat scored on its own calibration.
            if followsTiming {
                run.timingCorrection = LiveRoomSession.timingCorrection(of: LiveMicrophone(phone: slot),
                                                                        delay: EffectiveMicDelay(seconds: 0, source: .calibrated))
            }
            _ = worker.swap(run)
            worker.start()
        }

        deinit { worker.stop() }

        /// The phone's audio (C4, the song's note, or `silent`) for media seconds `from..<to`, in 10 ms
        /// frames; `pathMoved` seconds later in the phone's stream than it was sung (its capture path grew).
        func send(from: Double, to: Double, pathMoved: Double = 0, silent: Bool = false) throws {
            var index = UInt64((from + pathMoved) * Double(phoneRate))
            let end = UInt64((to + pathMoved) * Double(phoneRate))
            while index < end {
                let count = Int(min(240, end - index))
                let samples = (0..<count).map { i in
                    silent ? 0 : Int16(9_000 * sin(2 * Double.pi * 261.63 * Double(index + UInt64(i)) / Double(phoneRate)))
                }
                try PhoneLineLossTests.deliver(PhoneAudioFrame.encode(seat: 0, sampleIndex: index, samples: samples), to: slot)
                index += UInt64(count)
            }
        }

        func sleep(until media: Double) {
            let wait = start + media - HostClock.now()
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }

        var lines: [ClosedLine] { closed.lines.withLock { $0 } }
    }

    static func deliver(_ bytes: [UInt8], to slot: PhoneMicSlot) throws {
        try bytes.withUnsafeBytes { raw in
            let frame = try PhoneAudioFrame.parse(raw)
            slot.receive(frame, samples: UnsafeRawBufferPointer(rebasing: raw[PhoneAudioFrame.headerBytes...]))
        }
    }

    /// The box stalls (or the network holds the frames) for 0.8 s past line 1's end: the audio
    /// comes all at once, late but whole. Both lines are judged on it, heard, and scored.
    @Test func lateAudioIsWaitedForAndItsLinesAreHeard() throws {
        let run = try PhoneRun()
        run.sleep(until: 1.3)
        try run.send(from: 0, to: 1.4)
        #expect(waitUntil(timeout: 5) { run.lines.count == 2 }, "lines closed: \(run.lines.count)")
        let lines = run.lines
        #expect(lines.map(\.heard) == [true, true])
        #expect(lines.allSatisfy { $0.result.score > 0 }, "scores \(lines.map(\.result.score)): judged as silence")
    }

    /// The whole box stalls for 1.8 s past line 1's end, longer than the "lost" status's 1.5 s (the
    /// loaded browser runs saw 1.3–1.5 s): the audio comes whole and both lines are heard.
    @Test func audioLaterThanTheLostStatusButWithinTheLineWaitIsHeard() throws {
        let run = try PhoneRun()
        run.sleep(until: 0.5 + 1.8)
        try run.send(from: 0, to: 1.4)
        #expect(waitUntil(timeout: 5) { run.lines.count == 2 }, "lines closed: \(run.lines.count)")
        let lines = run.lines
        #expect(lines.map(\.heard) == [true, true])
        #expect(lines.allSatisfy { $0.result.score > 0 }, "scores \(lines.map(\.result.score)): judged as silence")
    }

    /// The phone sings line 1 and then sends nothing: line 2 still closes, `lineWait` behind
    /// the clock, and is the one marked unheard.
    @Test func aPhoneThatStopsSendingHasItsNextLineMarkedUnheard() throws {
        let run = try PhoneRun()
        for k in 0..<6 {
            run.sleep(until: 0.1 * Double(k + 1))
            try run.send(from: 0.1 * Double(k), to: 0.1 * Double(k + 1))
        }
        #expect(waitUntil(timeout: 2) { run.lines.count == 1 })
        #expect(run.lines.first?.heard == true)
        #expect((run.lines.first?.result.score ?? 0) > 0)
        // Line 2 ends at 1.2 s and waits `lineWait` for audio that never comes.
        #expect(waitUntil(timeout: 8) { run.lines.count == 2 }, "line 2 never closed")
        let closedAt = HostClock.now() - run.start
        #expect(closedAt >= 1.2 + PhoneMicSlot.lineWait - 0.1, "closed at \(closedAt) s: it did not wait for late audio")
        #expect(run.lines.last?.heard == false)
    }

    /// Frames the page never sent: a gap of `lostGap` or more is a lost span in the slot's log (a
    /// line sung over it is stored marked); a dropped 23 ms capture chunk is not.
    @Test func aGapInTheStreamIsMarkedLostAndADroppedChunkIsNot() throws {
        let slot = PhoneMicSlot(slot: 0)
        slot.setSeated(true)
        slot.setClockOffset(1000)
        func send(_ from: Double, _ to: Double) throws {
            var index = UInt64(from * Double(Self.phoneRate))
            while index < UInt64(to * Double(Self.phoneRate)) {
                try Self.deliver(PhoneAudioFrame.encode(seat: 0, sampleIndex: index, samples: [Int16](repeating: 500, count: 240)),
                                 to: slot)
                index += 240
            }
        }
        try send(0, 1)
        try send(1.02, 2)  // 20 ms missing: filled, not lost
        #expect(!slot.losses.wasLost(from: 1000, to: 1002))
        try send(2.3, 3)  // 300 ms missing
        #expect(slot.losses.wasLost(from: 1002.1, to: 1002.2))
        #expect(!slot.losses.wasLost(from: 1002.32, to: 1003), "the audio after the gap is not lost")
        try send(4, 5)  // a second missing (past the filled-gap limit): a new stamp, lost as well
        #expect(slot.losses.wasLost(from: 1003.5, to: 1003.6))
        #expect(!slot.losses.isLost)
    }

    /// The same singer reconnecting (a network blip) loses what fell between the two streams; a
    /// new singer taking the seat starts afresh.
    @Test func aReconnectLosesTheSilenceBetweenStreamsButANewSingerStartsClean() throws {
        let slot = PhoneMicSlot(slot: 0)
        slot.setSeated(true)
        slot.setClockOffset(1000)
        let frame = [Int16](repeating: 500, count: 240)
        for k in 0..<100 { try Self.deliver(PhoneAudioFrame.encode(seat: 0, sampleIndex: UInt64(240 * k), samples: frame), to: slot) }
        // Back after a blip with a fresh audio clock: its sample 0 is host 1002.
        slot.resetStream(sameSinger: true)
        slot.setClockOffset(1002)
        for k in 0..<100 { try Self.deliver(PhoneAudioFrame.encode(seat: 0, sampleIndex: UInt64(240 * k), samples: frame), to: slot) }
        #expect(slot.losses.wasLost(from: 1001.2, to: 1001.8))
        #expect(!slot.losses.wasLost(from: 1002.1, to: 1003))
        // Someone else takes the seat later: the previous singer's end is not this one's loss.
        slot.resetStream(sameSinger: false)
        slot.setClockOffset(1010)
        for k in 0..<100 { try Self.deliver(PhoneAudioFrame.encode(seat: 0, sampleIndex: UInt64(240 * k), samples: frame), to: slot) }
        #expect(!slot.losses.wasLost(from: 1003.5, to: 1011))
    }
}
