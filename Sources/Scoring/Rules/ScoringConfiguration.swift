/// Everything about one performance that changes how it is judged.
public struct ScoringConfiguration: Sendable, Equatable, Codable {
    public var difficulty: Difficulty
    /// How a beat's deviation meets the difficulty (whole semitones as UltraStar Deluxe, or exact cents).
    public var toleranceRule: PitchToleranceRule
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
        rules: ScoringRules = .ultraStar, toleranceRule: PitchToleranceRule = .wholeSemitones
    ) {
        self.difficulty = difficulty
        self.toleranceRule = toleranceRule
        self.mode = mode
        self.keyShift = keyShift
        self.tempo = tempo
        self.micDelay = micDelay
        self.rules = rules
    }

    /// Whether a beat sung `deviation` folded semitones off target is a hit (UltraStar mode).
    public func isHit(deviation: Double) -> Bool {
        toleranceRule.accepts(deviation: deviation, difficulty: difficulty)
    }

    /// The mic delay expressed in media seconds (the track advances `tempo` media seconds per wall second).
    public var micDelayMedia: Double { micDelay * tempo }

    private enum CodingKeys: String, CodingKey {
        case difficulty, toleranceRule, mode, keyShift, tempo, micDelay, rules
    }

    /// Configurations saved before `toleranceRule` existed were judged in exact cents.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        difficulty = try c.decode(Difficulty.self, forKey: .difficulty)
        toleranceRule = try c.decodeIfPresent(PitchToleranceRule.self, forKey: .toleranceRule) ?? .exactCents
        mode = try c.decode(ScoringMode.self, forKey: .mode)
        keyShift = try c.decode(Int.self, forKey: .keyShift)
        tempo = try c.decode(Double.self, forKey: .tempo)
        micDelay = try c.decode(Double.self, forKey: .micDelay)
        rules = try c.decode(ScoringRules.self, forKey: .rules)
    }
}
