@testable import AudioEngine
import Foundation
import Synchronization
import Testing

/// Playback through the private PulseAudio daemon (scripts/lib/pulse-test-env.sh), checked by
/// recording what actually arrives at `speaker.monitor`. Serialized: they share the speaker.
extension PulseAudioTests {
@Suite struct PulsePlaybackTests {
    @Test func toneArrivesWithRightPitchAndKeyPlusTwo() throws {
        let rig = try SpeakerRig(track: TestSignals.sine(440, seconds: 6), name: "a440.wav")
        defer { rig.close() }
        let (engine, recorder) = (rig.engine, rig.recorder)
        engine.play()
        Thread.sleep(forTimeInterval: 0.4)
        recorder.clear()
        recorder.record(for: 1.0)
        let f0 = try #require(TestSignals.medianFrequency(recorder.samples))
        #expect(abs(f0 - 440) < 1, "heard \(f0) Hz")

        engine.setKey(semitones: 2)
        Thread.sleep(forTimeInterval: 0.3)
        recorder.clear()
        recorder.record(for: 1.0)
        let f2 = try #require(TestSignals.medianFrequency(recorder.samples))
        #expect(abs(f2 - 493.88) < 3, "heard \(f2) Hz at key +2")
        // The key change did not move the clock.
        #expect(engine.position > 1.5 && engine.position < 3.2, "position \(engine.position)")
    }

    @Test func tempoOnePointTwoFivePlaysFourSecondsInThreePointTwo() throws {
        let path = try TestSignals.writeTemp(TestSignals.sine(330, seconds: 4), name: "tempo.wav")
        let engine = try PlaybackEngine(configuration: .init(device: "speaker"))
        defer { engine.close() }
        try engine.load(backingTrack: path, duration: 0)
        engine.setTempo(1.25)
        let start = Date()
        engine.play()
        while engine.isPlaying && Date().timeIntervalSince(start) < 8 { Thread.sleep(forTimeInterval: 0.005) }
        let elapsed = Date().timeIntervalSince(start)
        #expect(abs(elapsed - 3.2) < 0.15, "took \(elapsed) s")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(abs(engine.position - 4.0) < 0.01, "ended at \(engine.position)")
    }

    @Test func pauseSeekAndLoopPositions() throws {
        let path = try TestSignals.writeTemp(TestSignals.sine(262, seconds: 10), name: "positions.wav")
        let engine = try PlaybackEngine(configuration: .init(device: "speaker"))
        defer { engine.close() }
        try engine.load(backingTrack: path, duration: 0)
        #expect(engine.position == 0)
        engine.play()
        Thread.sleep(forTimeInterval: 0.6)
        engine.pause()
        Thread.sleep(forTimeInterval: 0.2)
        let paused = engine.position
        #expect(paused > 0.45 && paused < 0.75, "paused at \(paused)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(engine.position == paused, "position moved while paused")

        engine.seek(to: 5.0)
        Thread.sleep(forTimeInterval: 0.15)
        #expect(abs(engine.position - 5.0) < 0.001, "after seek \(engine.position)")
        engine.play()
        Thread.sleep(forTimeInterval: 0.5)
        let playing = engine.position
        #expect(playing > 5.35 && playing < 5.6, "playing from 5: \(playing)")

        engine.setLoop(2.0...2.5)
        engine.seek(to: 2.0)
        var seen: [Double] = []
        for _ in 0..<60 {
            Thread.sleep(forTimeInterval: 0.025)
            seen.append(engine.position)
        }
        let late = seen.suffix(40)
        #expect(late.allSatisfy { $0 >= 1.999 && $0 <= 2.501 }, "loop positions \(late)")
        #expect(late.max()! > 2.4 && late.min()! < 2.1, "loop covered \(late.min()!)…\(late.max()!)")

        engine.stop()
        Thread.sleep(forTimeInterval: 0.15)
        #expect(!engine.isPlaying)
        #expect(engine.position == 0)
    }

    /// 100 random seeks into a click track; for each, the first click heard at the monitor
    /// is timed by its capture stamp and compared with what the clock said was playing.
    @Test func positionAccurateAfterHundredRandomSeeks() throws {
        let period = 0.25
        let rig = try SpeakerRig(track: TestSignals.clicks(period: period, seconds: 60), name: "clicks.wav")
        defer { rig.close() }
        let (engine, recorder) = (rig.engine, rig.recorder)
        engine.play()
        Thread.sleep(forTimeInterval: 0.3)
        var generator = SystemRandomNumberGenerator()
        var errors: [Double] = []
        for _ in 0..<100 {
            let target = Double.random(in: 1...55, using: &generator)
            recorder.clear()
            let seekHost = HostClock.now()
            engine.seek(to: target)
            recorder.record(for: 0.4)
            // The first click of the new position: the old audio, rendered before the seek, is
            // heard for one output latency (the stream buffer) plus the callback and fade after it.
            let oldAudioHeardUntil = seekHost + (engine.outputLatency ?? 0.1) + 0.04
            let heard = recorder.heardClicks(period: period, after: oldAudioHeardUntil, clock: engine.clock)
            guard let first = heard.first(where: { $0.click >= target }) else { continue }
            #expect(first.click <= target + 0.5, "click \(first.click) after seek to \(target)")
            errors.append(first.error)
        }
        let summary = ErrorSummary(errors)
        print("position accuracy after random seeks: \(summary)")
        print("errors ms:", errors.map { ($0 * 10_000).rounded() / 10 })
        #expect(errors.count >= 95, "\(summary)")
        // The monitor's capture stamps are corrected by the sink latency PulseAudio reports for
        // monitor streams (CaptureEngine), so they give the moment the sink plays each block.
        // On an idle machine every seek lands within 0.5 ms; with other processes competing for
        // the two cores, one to three seeks in a hundred were 2–10 ms off (docs/audio-engine.md).
        #expect(summary.p95 <= 0.005, "\(summary)")
        #expect(summary.max <= 0.02, "\(summary)")
    }

    /// The playback thread asks for priority at its first buffer and says what it got; when it is
    /// held off anyway (here: the test holds the mainloop lock it renders under for 300 ms), the
    /// speakers go silent, the engine counts it and the watcher reports it off the audio thread.
    @Test func aStarvedPlaybackThreadIsCountedAndReported() throws {
        let rig = try SpeakerRig(track: TestSignals.sine(440, seconds: 6), name: "starved.wav")
        defer { rig.close() }
        let engine = rig.engine
        let reports = Mutex<[(Int, Int)]>([])
        let watch = UnderrunWatch(engine: engine, interval: 0.1) { new, total in reports.withLock { $0.append((new, total)) } }
        defer { watch.stop() }
        engine.play()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(engine.playbackThreadPriority != .unknown, "asked at the first buffer")
        let before = engine.underruns
        engine.pulse.withLock { Thread.sleep(forTimeInterval: 0.3) }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(engine.underruns >= before + 1, "a 300 ms stall of a 100 ms buffer: \(before) -> \(engine.underruns)")
        let seen = reports.withLock { $0 }
        #expect(seen.map(\.0).reduce(0, +) == engine.underruns && seen.last?.1 == engine.underruns, "\(seen)")
    }

    /// The end of the track is rendered a stream buffer before the speakers play it; the engine
    /// says "playing" until it is heard (the room ends the song on that, and a room that saw it
    /// stop 60 ms early took the end for a lost device and never finished the song).
    @Test func theTrackPlaysUntilItsEndIsHeard() throws {
        let rig = try SpeakerRig(track: TestSignals.sine(440, seconds: 1.5), name: "ends.wav")
        defer { rig.close() }
        let engine = rig.engine
        engine.play()
        let deadline = Date().addingTimeInterval(5)
        while engine.isPlaying && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        let atStop = engine.position
        #expect(!engine.isPlaying, "still playing after 5 s of a 1.5 s track")
        #expect(engine.state == .stopped)
        #expect(atStop >= 1.5 - 0.005, "stopped at \(atStop) s of 1.5 s: the end was not heard yet")
        print("track end: playing turned false at \(atStop) s of 1.5 s (output latency \((engine.outputLatency ?? -1) * 1000) ms)")
        // A control call after the end is the listener's: play again starts over.
        engine.play()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(engine.isPlaying && engine.position < 0.5, "replay at \(engine.position)")
    }

    /// The stream buffer is the room's headroom: a playback thread held off for 40 ms five times
    /// leaves the tone playing. Whether it also leaves no underrun and no dipped window depends on
    /// the scheduler as well as the buffer: a figure of `scripts/bench pulse-continuity` (the
    /// earlier 40 ms buffer ran dry there every time).
    @Test func aPlaybackThreadHeldOffFortyMillisecondsPlaysOn() throws {
        let rig = try SpeakerRig(track: TestSignals.sine(440, seconds: 6), name: "held-off.wav")
        defer { rig.close() }
        let (engine, recorder) = (rig.engine, rig.recorder)
        engine.play()
        Thread.sleep(forTimeInterval: 0.5)
        let before = engine.underruns
        recorder.clear()
        recorder.record(for: 0.3)
        for _ in 0..<5 {
            engine.pulse.withLock { Thread.sleep(forTimeInterval: 0.04) }
            recorder.record(for: 0.3)
        }
        let x = recorder.samples
        let steady = TestSignals.rms(x[0..<Int(0.25 * TestSignals.rate)])
        #expect(steady > 0.2, "the tone did not play: rms \(steady)")
        let tone = ToneContinuity(x[...], steady: steady)
        #expect(tone.levels.count > 150, "recorded \(tone.levels.count) windows")
        let last = TestSignals.rms(x[(x.count - Int(0.25 * TestSignals.rate))...])
        #expect(last > 0.5 * steady, "after the holds the tone plays at \(last / steady) of its level")
        #expect(engine.isPlaying)
        print("held off 5 × 40 ms: underruns \(before) -> \(engine.underruns), lowest 10 ms window \(tone.envelope.min()!) %, output latency \((engine.outputLatency ?? -1) * 1000) ms")
        RealTimeFigures.record("held-off-40ms", [
            "underruns_added": Double(engine.underruns - before),
            "lowest_window_percent": Double(tone.envelope.min()!),
        ])
    }
}
}
