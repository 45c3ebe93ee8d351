@testable import AudioEngine
import Foundation
import Testing

/// Changing key or tempo while playing, through the real path: a steady tone plays into
/// `speaker` while key and tempo change every 0.3 s, and what arrives at `speaker.monitor` is
/// checked: it plays on through every change. "No gap or click longer than one buffer" is the
/// renderer's (`PlaybackRendererTests.liveKeyAndTempoChangesLeaveNoGapOrClick`, exact) and, through
/// PulseAudio, a figure of `scripts/bench pulse-continuity`.
extension PulseAudioTests {
@Suite struct PulseLiveChangeTests {
    @Test func keyAndTempoChangesWhilePlayingPlayOn() throws {
        let rig = try SpeakerRig(track: TestSignals.sine(440, seconds: 20), name: "live-change.wav")
        defer { rig.close() }
        let (engine, recorder) = (rig.engine, rig.recorder)
        engine.play()
        Thread.sleep(forTimeInterval: 0.5)
        recorder.clear()
        recorder.record(for: 0.3)
        for change in ToneContinuity.changes {
            engine.setKey(semitones: change.key)
            engine.setTempo(change.tempo)
            recorder.record(for: 0.3)
        }
        recorder.record(for: 0.3)

        let x = recorder.samples
        let steady = TestSignals.rms(x[0..<Int(0.25 * TestSignals.rate)])
        #expect(steady > 0.2, "the tone did not play: rms \(steady)")
        let tone = ToneContinuity(x[...], steady: steady)
        #expect(tone.levels.count > 300, "recorded \(tone.levels.count) windows")
        // What the changes must do whatever the load: the stream keeps playing through all ten
        // and after them (a change that broke the stream or the stretcher leaves silence).
        let last = TestSignals.rms(x[(x.count - Int(0.25 * TestSignals.rate))...])
        #expect(last > 0.5 * steady, "after the changes the tone plays at \(last / steady) of its level")
        #expect(engine.isPlaying)
        // How smoothly (the lowest 10 ms window, the longest dip, the largest step against a
        // click) depends on the scheduler too: `scripts/bench pulse-continuity` judges it.
        print("live changes through PulseAudio: lowest 10 ms window \(tone.envelope.min()!) %, longest run below half \(tone.longestDip) × 10 ms, largest step \(tone.largestStep / tone.stepLimit) of a click")
        RealTimeFigures.record("live-key-tempo-changes", [
            "lowest_window_percent": Double(tone.envelope.min()!),
            "longest_dip_ms": Double(tone.longestDip * 10),
            "largest_step_of_click": Double(tone.largestStep / tone.stepLimit),
            "underruns": Double(engine.underruns),
        ])
    }
}
}
