/// Where the frames are in a note reached from another voiced note: a legato step, or a new
/// vowel rising out of the previous note's reverberant tail.
///
/// For the first frames of such a note the 46 ms main window holds the old note's tail and the
/// new vowel together, and can read a period common to both (often twice the new one) steadily
/// for 70 ms; that wrong reading then continues itself. While `settling`, `PitchDetector` reads
/// every voiced frame again on the newest samples, not only those that break the period.
/// A note that starts from silence is not re-read: there is no tail to read, and the newest 21 ms
/// of a rising low voice read its harmonics (docs/pitch.md, "Pipeline", stage 9).
struct LegatoOnset {
    /// Frames re-read after a note's first frame.
    let frames: Int
    /// Voiced frames since the note's first frame; nil while unvoiced.
    private var framesIn: Int?
    private var fromVoice = false

    init(frames: Int) { self.frames = frames }

    /// True while the frames after a legato note's first frame are still to be re-read.
    var settling: Bool { fromVoice && (framesIn ?? Int.max) < frames }

    /// Takes one frame's outcome: `continuing` = voiced on the previous voiced frame's period.
    /// A change inside the settling frames (the newest reading taken, or the main window moving
    /// between the two notes) belongs to the same onset and does not start it again.
    mutating func frame(voiced: Bool, previouslyVoiced: Bool, continuing: Bool) {
        guard voiced else { framesIn = nil; return }
        guard previouslyVoiced, let framesIn else { self.framesIn = 0; fromVoice = false; return }
        if !continuing && framesIn >= frames {
            self.framesIn = 0
            fromVoice = true
        } else {
            self.framesIn = framesIn + 1
        }
    }

    mutating func reset() { framesIn = nil; fromVoice = false }
}
