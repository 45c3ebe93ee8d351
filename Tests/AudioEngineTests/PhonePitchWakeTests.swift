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

/// A phone's pitch reaches the room when its frame arrives, not at the worker's next poll, and a
/// sung onset is published at once whatever the pitch-event stride (docs/phone-mics.md,
/// "Glass-to-event").
@Suite struct PhonePitchWakeTests {
    @Test func signalsBetweenTwoWaitsWakeTheReaderOnce() {
        let signal = SampleArrivalSignal()
        for _ in 0..<100 { signal.signal() }
        #expect(signal.wait(seconds: 0))
        // The hundred signals were one wake-up: the next wait times out.
        #expect(!signal.wait(seconds: 0.05))
        signal.signal()
        #expect(signal.wait(seconds: 0))
    }

    @Test func aSignalWakesAWaitingThread() {
        let signal = SampleArrivalSignal()
        let woken = Mutex<Bool?>(nil)
        let thread = Thread { woken.withLock { $0 = signal.wait(seconds: 30) } }
        thread.start()
        Thread.sleep(forTimeInterval: 0.1)
        signal.signal()
        #expect(waitUntil(timeout: 5) { woken.withLock { $0 } != nil })
        #expect(woken.withLock { $0 } == true)
    }

    @Test func aVoicingChangeIsPublishedWhateverTheStride() {
        var thinning = PitchThinning(stride: 2)
        let silent = PitchSample(time: 0, midi: nil, levelDb: -90)
        let sung = PitchSample(time: 0, midi: 57, levelDb: -20)
        // Frames 1…5 silent, 6…10 sung, 11…13 silent.
        let frames = Array(repeating: silent, count: 5) + Array(repeating: sung, count: 5) + Array(repeating: silent, count: 3)
        let kept = frames.indices.filter { thinning.keeps(frames[$0]) }.map { $0 + 1 }
        // Every 2nd frame, plus frame 11: the note's end, which the stride alone would have left out.
        #expect(kept == [2, 4, 6, 8, 10, 11, 12])

        var shifted = PitchThinning(stride: 2)
        let late = Array(repeating: silent, count: 4) + Array(repeating: sung, count: 4) + [silent]
        let keptLate = late.indices.filter { shifted.keeps(late[$0]) }.map { $0 + 1 }
        // Onset on frame 5 (odd): kept at once, not a frame later; the end on frame 9 too.
        #expect(keptLate == [2, 4, 5, 6, 8, 9])
    }

    @Test func aPhoneFrameWakesItsPitchWorkerAtOnce() throws {
        let rate = PhoneMicSlot.sampleRate
        let clock = PlaybackClock()
        clock.setSampleRate(rate)
        clock.append(ClockCheckpoint(outputFrame: 0, mediaTime: 0, rate: 1))
        clock.setRunning(true)
        let start = HostClock.now()
        clock.publish(playedFrame: 0, hostTime: start, written: Int64(rate * 60))
        let slot = PhoneMicSlot(slot: 0)
        slot.setSeated(true)
        slot.setClockOffset(start)  // phone sample i was captured at host time start + i / 24 000
        let song = try UltraStarReader.read(text: """
            #TITLE:Wake
            #ARTIST:Tests
            #BPM:300
            #GAP:0
            : 0 200 0 la
            E
            """, path: "wake.txt")
        let session = try ScoringSession(song: song, configuration: ScoringConfiguration(micDelay: 0))
        let voiced = Mutex<Int>(0)
        // A poll interval far longer than the test: only the frame's signal can wake the worker.
        let worker = LiveSingerWorker(
            channel: slot.channel, clock: clock, backing: nil, pitchStride: 2,
            output: .init(samples: { _, samples in voiced.withLock { $0 += samples.filter { $0.midi != nil }.count } },
                          lines: { _, _ in }, jumped: { _ in }),
            pollInterval: 60)
        _ = worker.swap(LiveSingerRun(singer: 0, name: "Ann", part: 0, session: session, recorder: nil,
                                      fromStart: true, startPosition: 0))
        worker.start()
        defer { worker.stop() }
        // The worker's first step has read the empty ring; it now waits for a frame.
        Thread.sleep(forTimeInterval: 0.3)
        // 0.2 s of A3 in 10 ms frames, stamped as captured now.
        let first = UInt64((HostClock.now() - start) * 24_000)
        for k in 0..<20 {
            let index = first + UInt64(240 * k)
            let samples = (0..<240).map { i in
                Int16(9_000 * sin(2 * Double.pi * 220 * Double(index + UInt64(i)) / 24_000))
            }
            let bytes = PhoneAudioFrame.encode(seat: 0, sampleIndex: index, samples: samples)
            try bytes.withUnsafeBytes { raw in
                let frame = try PhoneAudioFrame.parse(raw)
                slot.receive(frame, samples: UnsafeRawBufferPointer(rebasing: raw[PhoneAudioFrame.headerBytes...]))
            }
        }
        #expect(waitUntil(timeout: 5) { voiced.withLock { $0 } > 0 }, "no pitch published: the worker slept through the frames")
    }
}
