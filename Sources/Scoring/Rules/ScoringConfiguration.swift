/// Everything about one performance that changes how it is judged.
public struct ScoringConfiguration: Sendable, Equatable, Codable {
    public var difficulty: Difficulty
    public var mode: ScoringMode
    /// Semitones the backing track is transposed by; every reference note moves with it.
    public var keyShift: Int
    /// Playback speed (1 = original). Samples are stamped in media time, so judging
    /// needs no change; tempo only converts the mic delay (wall seconds) to media seconds.
    public var tempo: Double
    /// Seconds between a sound being sung and its capture reaching us (per microphone).
    public var micDelay: Double
    public var rules: ScoringRules

    public static let defaultMicDelay = 0.140

    public init(
        difficulty: Difficulty = .medium, mode: ScoringMode = .ultraStar, keyShift: Int = 0,
        tempo: Double = 1, micDelay: Double = ScoringConfiguration.defaultMicDelay,
        rules: ScoringRules = .ultraStar
    ) {
        self.difficulty = difficulty
        self.mode = mode
        self.keyShift = keyShift
        self.tempo = tempo
        self.micDelay = micDelay
        self.rules = rules
    }

    /// The mic delay expressed in media seconds (the track advances `tempo` media seconds per wall second).
    public var micDelayMedia: Double { micDelay * tempo }
}
