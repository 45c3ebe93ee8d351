import SongModel

/// The UltraStar point system: 10000 = 9000 for notes + 1000 line bonus.
public struct ScoringRules: Sendable, Equatable, Codable {
    public var maxScore: Double
    /// Shared equally by the lines that have judged notes.
    public var lineBonusTotal: Double
    /// A pitched sample below this level counts as silence, whatever the detector says.
    /// It is the lowest level the detector voices (`PitchDetectorConfiguration.holdLevelDb`, a
    /// fading note it holds; new notes start at −60): the detector already weighs level,
    /// periodicity and bleed, and a second, stricter gate only made the score follow the
    /// microphone's gain (the quiet ends of well sung notes were dropped: at −50 dBFS, 10 dB
    /// less gain cost a clean singer 582 points; docs/scoring.md, "Mic gain").
    public var voicingGateDb: Double
    /// Rap notes and participation slots ask for sound, not pitch: a sample counts when it is
    /// at least this loud. Above a quiet room's noise floor, so breathing and hiss do not rap.
    public var soundGateDb: Double
    /// Longest unvoiced gap (seconds, between voiced samples) inside on-pitch singing that
    /// is filled in before judging (consonants, see `GapBridge`); 0 turns bridging off.
    public var unvoicedBridgeSeconds: Double

    public static let defaultUnvoicedBridgeSeconds = 0.1

    public init(
        maxScore: Double = 10000, lineBonusTotal: Double = 1000, voicingGateDb: Double = -70,
        soundGateDb: Double = -50, unvoicedBridgeSeconds: Double = ScoringRules.defaultUnvoicedBridgeSeconds
    ) {
        self.maxScore = maxScore
        self.lineBonusTotal = lineBonusTotal
        self.voicingGateDb = voicingGateDb
        self.soundGateDb = soundGateDb
        self.unvoicedBridgeSeconds = unvoicedBridgeSeconds
    }

    private enum CodingKeys: String, CodingKey {
        case maxScore, lineBonusTotal, voicingGateDb, soundGateDb, unvoicedBridgeSeconds
    }

    /// Rules saved before gap bridging existed did not bridge; rules saved before the two gates
    /// were told apart used one gate for both.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maxScore = try c.decode(Double.self, forKey: .maxScore)
        lineBonusTotal = try c.decode(Double.self, forKey: .lineBonusTotal)
        voicingGateDb = try c.decode(Double.self, forKey: .voicingGateDb)
        soundGateDb = try c.decodeIfPresent(Double.self, forKey: .soundGateDb) ?? voicingGateDb
        unvoicedBridgeSeconds = try c.decodeIfPresent(Double.self, forKey: .unvoicedBridgeSeconds) ?? 0
    }

    public static let ultraStar = ScoringRules()

    public var notesTotal: Double { maxScore - lineBonusTotal }

    /// Points weight of one beat of a note of this kind.
    public static func weight(of kind: NoteKind) -> Double {
        switch kind {
        case .freestyle: 0
        case .normal, .rap: 1
        case .golden, .goldenRap: 2
        }
    }

    /// `sung − target` in semitones after moving `sung` by whole octaves to the
    /// octave nearest the target, so the result lies in −6 ..< +6.
    public static func foldedDeviation(sung: Double, target: Double) -> Double {
        let d = (sung - target).truncatingRemainder(dividingBy: 12)
        if d >= 6 { return d - 12 }
        if d < -6 { return d + 12 }
        return d
    }

    /// Practice credit: full within half a semitone, none beyond 1.5, linear between.
    public static func practiceCredit(deviation: Double) -> Double {
        let e = abs(deviation)
        if e <= 0.5 { return 1 }
        if e >= 1.5 { return 0 }
        return 1.5 - e
    }

    /// How well a line was sung, 0…1: `clamp(score / (max − 2), 0, 1)` in points,
    /// as UltraStar Deluxe does (the 2 points forgive rounding at note edges).
    /// Lines worth 2 points or less have no slack, so silence still earns nothing.
    public static func perfection(lineScore: Double, lineMax: Double) -> Double {
        guard lineMax > 0 else { return 0 }
        let denominator = lineMax > 2 ? lineMax - 2 : lineMax
        return min(max(lineScore / denominator, 0), 1)
    }

    /// `lineBonusTotal / lines × perfection`.
    public func lineBonus(perfection: Double, judgedLineCount: Int) -> Double {
        guard judgedLineCount > 0 else { return 0 }
        return lineBonusTotal / Double(judgedLineCount) * perfection
    }
}
