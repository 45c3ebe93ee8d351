import SongModel

/// How one reference note was sung.
public struct NoteResult: Sendable, Equatable, Codable {
    public var text: String
    public var kind: String
    public var targetMidi: Double?
    public var beats: Int
    /// Sum of beat credits (0…beats).
    public var creditedBeats: Double
    /// Mean deviation of the judged beats from the target, in cents (nil when never voiced
    /// or not pitched). Positive = sharp. Reported in both modes; practice mode shows it per note.
    public var deviationCents: Double?

    public init(text: String, kind: NoteKind, targetMidi: Double?, beats: Int, creditedBeats: Double, deviationCents: Double?) {
        self.text = text
        self.kind = kind.rawValue
        self.targetMidi = targetMidi
        self.beats = beats
        self.creditedBeats = creditedBeats
        self.deviationCents = deviationCents
    }
}
