/// How far from the reference a sung pitch may be and still count (UltraStar mode).
public enum Difficulty: String, Sendable, Equatable, CaseIterable, Codable {
    case easy, medium, hard

    /// Largest accepted |sung − target| after octave folding, in semitones, for the
    /// exact-cents rule (`PitchToleranceRule.exactCents`).
    public var toleranceSemitones: Double {
        switch self {
        case .easy: 2
        case .medium: 1
        case .hard: 0.5
        }
    }

    /// UltraStar Deluxe's `Range = 2 − difficulty`: largest accepted deviation in whole
    /// semitones after rounding (`PitchToleranceRule.wholeSemitones`, the default).
    public var wholeSemitoneRange: Int {
        switch self {
        case .easy: 2
        case .medium: 1
        case .hard: 0
        }
    }
}
