/// What a score measures; shown with every result so nobody mistakes one for another.
public enum ScoreBasis: String, Sendable, Equatable, Codable {
    /// Pitch and timing against the song's own notes.
    case notes
    /// Pitch and timing against notes derived from the vocal guide track.
    case derivedNotes
    /// Timing only: voiced during lyric lines. The song has no notes and no guide track.
    case participation

    public var explanation: String {
        switch self {
        case .notes: "pitch score against the song's notes"
        case .derivedNotes: "pitch score against notes derived from the vocal guide track"
        case .participation: "timing-only participation score (voiced during lyric lines); the song has no notes, so pitch is not judged"
        }
    }
}
