import CRubberBand
import Foundation

/// Live key and tempo change for the stereo backing track: Rubber Band in real-time mode.
///
/// Choices (see docs/audio-engine.md):
/// - `EngineFiner` (R3): the R2 engine's real-time pitch drifts by up to ±17 cents on a sine
///   (shared/guides/platform.md §3: 491.5–498.7 Hz for 493.88), which singers hear as out of
///   tune against the melody they are scored on; R3 lands within 0.1 Hz.
/// - `PitchHighConsistency`: one processing path at every key (resampling after stretching),
///   the one the clock's timing was measured on.
/// - `ChannelsTogether`: keeps the stereo image of a full mix (no vocals to protect).
/// - `FormantShifted` (default): a backing mix has no voice whose formants need preserving.
/// - `ThreadingNever`: the stretcher runs inside the PulseAudio write callback; no extra threads.
///
/// One instance, never recreated (nothing is allocated on the audio thread). The renderer sets
/// key and tempo just before `reposition` (seek, loop jump, key or tempo change), which resets
/// and primes it in place: changed on the running instance, its latency would move by an
/// amount Rubber Band does not report, and the playback clock would drift off the sound.
final class KeyTempoStretcher {
    static let channels = 2
    /// The largest block handed to `rubberband_process`; also the scratch size.
    static let maxBlock = 4096

    private let state: OpaquePointer
    private let inputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let discard: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private(set) var semitones = 0
    private(set) var tempo = 1.0

    init(sampleRate: Double) {
        let options = RubberBandOptionProcessRealTime.rawValue | RubberBandOptionEngineFiner.rawValue
            | RubberBandOptionPitchHighConsistency.rawValue | RubberBandOptionChannelsTogether.rawValue
            | RubberBandOptionFormantShifted.rawValue | RubberBandOptionThreadingNever.rawValue
        state = rubberband_new(UInt32(sampleRate), UInt32(Self.channels), Int32(bitPattern: options), 1.0, 1.0)
        rubberband_set_max_process_size(state, UInt32(Self.maxBlock))
        inputs = .allocate(capacity: Self.channels)
        outputs = .allocate(capacity: Self.channels)
        discard = .allocate(capacity: Self.channels)
        for c in 0..<Self.channels {
            inputs[c] = .allocate(capacity: Self.maxBlock)
            inputs[c]!.initialize(repeating: 0, count: Self.maxBlock)
            discard[c] = .allocate(capacity: Self.maxBlock)
            discard[c]!.initialize(repeating: 0, count: Self.maxBlock)
            outputs[c] = nil
        }
    }

    deinit {
        rubberband_delete(state)
        for c in 0..<Self.channels {
            inputs[c]?.deallocate()
            discard[c]?.deallocate()
        }
        inputs.deallocate()
        outputs.deallocate()
        discard.deallocate()
    }

    func setKey(semitones: Int) {
        self.semitones = semitones
        rubberband_set_pitch_scale(state, pow(2.0, Double(semitones) / 12))
    }

    /// `tempo` > 1 plays faster (Rubber Band's time ratio is the inverse).
    func setTempo(_ tempo: Double) {
        self.tempo = tempo
        rubberband_set_time_ratio(state, 1 / tempo)
    }

    /// Output frames between feeding a sample and hearing it, at the current settings.
    var outputDelay: Int { Int(rubberband_get_start_delay(state)) }

    /// Input frames `reposition` takes before the first frame to be heard.
    var startPad: Int { Int(rubberband_get_preferred_start_pad(state)) }

    /// Resets and primes so that the next output frame is the input frame `source` gives after
    /// the first `startPad` ones. Those are the audio just before the new position (zeros
    /// before the track's start): primed with silence, as Rubber Band suggests, the output would
    /// swell in over ~40 ms while its overlap-add fills; primed with the real audio it starts
    /// at full level, so a seek or a key/tempo change only dips for the renderer's short fade.
    func reposition(source: (_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ count: Int) -> Void) {
        rubberband_reset(state)
        var pad = startPad
        while pad > 0 {
            let n = min(pad, Self.maxBlock)
            source(inputs[0]!, inputs[1]!, n)
            process(n)
            pad -= n
        }
        var drop = outputDelay
        while drop > 0 {
            let n = min(drop, Self.maxBlock)
            fill(n, source: source)
            rubberband_retrieve(state, UnsafePointer(discard), UInt32(n))
            drop -= n
        }
    }

    /// Produces `count` (≤ maxBlock) output frames into `left`/`right`, pulling input as needed.
    func render(count: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                source: (_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ count: Int) -> Void) {
        fill(count, source: source)
        outputs[0] = left
        outputs[1] = right
        let got = Int(rubberband_retrieve(state, UnsafePointer(outputs), UInt32(count)))
        if got < count {
            (left + got).update(repeating: 0, count: count - got)
            (right + got).update(repeating: 0, count: count - got)
        }
    }

    /// Feeds input until at least `count` output frames are available.
    private func fill(_ count: Int, source: (_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ count: Int) -> Void) {
        var guardCount = 0
        while Int(rubberband_available(state)) < count && guardCount < 64 {
            var need = Int(rubberband_get_samples_required(state))
            if need <= 0 { need = 256 }
            need = min(need, Self.maxBlock)
            source(inputs[0]!, inputs[1]!, need)
            process(need)
            guardCount += 1
        }
    }

    private func process(_ n: Int) {
        inputs.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: Self.channels) { ptr in
            rubberband_process(state, ptr, UInt32(n), 0)
        }
    }
}
