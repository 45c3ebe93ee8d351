/// How far from the reference a sung pitch may be and still count (UltraStar mode).
public enum Difficulty: String, Sendable, Equatable, CaseIterable, Codable {
    case easy, medium, hard

    /// Largest accepted |sung − target| after octave folding, in semitones.
    public var toleranceSemitones: Double {
        switch self {
        case .easy: 2
        case .medium: 1
        case .hard: 0.5
        }
    }
}
