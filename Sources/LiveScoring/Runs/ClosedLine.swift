import Scoring

/// A line as its run closed it, and whether the microphone's audio had been analysed through
/// the line's end by then. Lines close at most `maximumLag` behind the clock; a microphone that
/// sent nothing for that long has its lines judged on silence it never delivered. Those are
/// stored marked lost, not as a silent singer's. A microphone whose audio came late but in time
/// (a stalled server, a slow network) was judged on what it sang and is not marked.
public struct ClosedLine: Sendable {
    public var result: LineResult
    public var heard: Bool

    /// Audio this close to the line's end counts as all of it (the detector's 10 ms hop, and the
    /// last frame's half window that judging does not wait for).
    static let endTolerance = 0.05

    /// Whether a line whose last note ends at `judgedEnd` (song time) was heard to its end by a
    /// microphone `micDelay` late (media seconds), given the newest analysed frame's media time.
    static func wasHeard(judgedEnd: Double, micDelay: Double, analysedThrough: Double?) -> Bool {
        guard let analysedThrough else { return false }
        return analysedThrough + endTolerance >= judgedEnd + micDelay
    }
}
