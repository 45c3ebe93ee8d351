import AudioEngine

/// For each microphone sample, what the speakers were being fed when it was captured:
/// capture host time → output frame being played then (playback clock) → that frame of the
/// rendered output, resampled to the microphone's rate. The bleed suppressor's reference.
///
/// The reference runs `lead` ahead of what the clock says was heard at capture time, so it
/// always leads the microphone even when the clock's estimate or the capture stamp is a few
/// milliseconds off: the suppressor's delay estimator searches the backing *leading* the
/// microphone by 0–250 ms and finds the rest (acoustic path, device latencies). It advances
/// sample by sample and re-anchors to the clock only when they part by more than `tolerance`
/// (a stall, an underrun, a reconnect, clock drift): small clock-estimate jitter would
/// otherwise jump the reference under the suppressor's converged delay and bleed path.
/// Seeks, pauses, loops and key or tempo changes need nothing here: the tap holds what was
/// actually rendered. Not thread-safe: the pitch worker owns it.
final class PlayedBackingAligner {
    /// How far the reference runs ahead of the clock's estimate of what was heard.
    static let leadSeconds = 0.02

    let tap: RenderedOutputTap
    let clock: PlaybackClock
    /// Output frames per microphone sample.
    let step: Double
    let lead: Double
    let tolerance: Double
    /// Output frame (fractional) for the next microphone sample; nil until anchored.
    private var next: Double?
    private let scratch: UnsafeMutablePointer<Float>
    private let sideScratch: UnsafeMutablePointer<Float>
    private let scratchCount: Int
    let maxBlock: Int

    init(tap: RenderedOutputTap, clock: PlaybackClock, micRate: Double, maxBlock: Int,
         leadSeconds: Double = PlayedBackingAligner.leadSeconds, toleranceSeconds: Double = 0.010) {
        self.tap = tap
        self.clock = clock
        self.maxBlock = maxBlock
        step = tap.sampleRate / micRate
        lead = leadSeconds * tap.sampleRate
        tolerance = toleranceSeconds * tap.sampleRate
        scratchCount = Int((Double(maxBlock) * step).rounded(.up)) + 4
        scratch = .allocate(capacity: scratchCount)
        scratch.initialize(repeating: 0, count: scratchCount)
        sideScratch = .allocate(capacity: scratchCount)
        sideScratch.initialize(repeating: 0, count: scratchCount)
    }

    deinit {
        scratch.deallocate()
        sideScratch.deallocate()
    }

    /// Fills `out[0..<count]` (count ≤ maxBlock) with the reference for `count` microphone
    /// samples whose first was captured at `hostTime` (nil: unknown → silence, re-anchor later).
    /// `side`: when given, receives the played side (`RenderedOutputTap.sideSample`) the same way.
    func fill(_ out: UnsafeMutablePointer<Float>, side: UnsafeMutablePointer<Float>? = nil, count: Int, firstHostTime hostTime: Double?) {
        precondition(count <= maxBlock, "block larger than the aligner was made for")
        guard let hostTime else {
            out.update(repeating: 0, count: count)
            side?.update(repeating: 0, count: count)
            next = nil
            return
        }
        let target = clock.playedFrame(atHostTime: hostTime) + lead
        var position = next ?? target
        if abs(position - target) > tolerance { position = target }
        let first = Int64(position.rounded(.down))
        let span = min(Int((position + Double(count) * step).rounded(.down) - Double(first)) + 2, scratchCount)
        tap.copy(from: first, count: span, into: scratch, side: side == nil ? nil : sideScratch)
        let base = Double(first)
        for i in 0..<count {
            let p = position + Double(i) * step - base
            let j = min(Int(p), span - 2)
            let frac = Float(p - Double(j))
            out[i] = scratch[j] + (scratch[j + 1] - scratch[j]) * frac
            if let side { side[i] = sideScratch[j] + (sideScratch[j + 1] - sideScratch[j]) * frac }
        }
        next = position + Double(count) * step
    }
}
