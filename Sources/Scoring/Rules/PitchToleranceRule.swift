/// How a beat's pitch deviation is compared with the difficulty's tolerance (UltraStar mode).
public enum PitchToleranceRule: String, Sendable, Equatable, CaseIterable, Codable {
    /// UltraStar Deluxe's rule, the default: the folded deviation is rounded to the nearest
    /// whole semitone, then compared with 2 / 1 / 0 (easy / medium / hard). USDX detects
    /// whole semitones only (`TCaptureBuffer.Tone: integer`, src/base/URecord.pas) and
    /// hits when `Abs(Note.Tone − Sound.Tone) <= Range` with `Range := 2 − Difficulty`
    /// (src/base/UNote.pas, `NewNote`). Effective windows: ±2.5 / ±1.5 / ±0.5 semitones.
    case wholeSemitones = "semitones"
    /// The exact median deviation in cents against 2 / 1 / 0.5 semitones (stricter: a singer
    /// steadily 100 cents sharp is a coin toss on medium).
    case exactCents = "cents"

    /// Whether a beat sung `deviation` semitones (already folded) from its target is a hit.
    public func accepts(deviation: Double, difficulty: Difficulty) -> Bool {
        switch self {
        case .wholeSemitones:
            // Rounding half away from zero: 1.5 semitones is 2 whole semitones (a miss on medium).
            abs(deviation.rounded(.toNearestOrAwayFromZero)) <= Double(difficulty.wholeSemitoneRange)
        case .exactCents:
            abs(deviation) <= difficulty.toleranceSemitones + 1e-9
        }
    }
}
