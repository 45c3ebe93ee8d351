import Scoring

/// Which pitch frames a singer's worker publishes as `pitch` events: every `stride`-th (10 ms
/// frames → one event per 20 ms at 2), and besides those every frame whose voicing differs from
/// the last one published, so a note's start and end reach the screens at once instead of up to
/// a stride later (a sung onset waited 10 ms for its event whenever it fell between two
/// published frames; docs/phone-mics.md, "Glass-to-event").
struct PitchThinning {
    let stride: Int
    private var count = 0
    private var lastVoiced = false

    init(stride: Int) { self.stride = max(stride, 1) }

    mutating func keeps(_ sample: PitchSample) -> Bool {
        count &+= 1
        let voiced = sample.midi != nil
        guard count % stride == 0 || voiced != lastVoiced else { return false }
        lastVoiced = voiced
        return true
    }
}
