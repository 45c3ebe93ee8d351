/// The verdict on one lyric line, reported as soon as the line is over.
public struct LineResult: Sendable, Equatable, Codable {
    public var lineIndex: Int
    public var text: String
    public var start: Double
    public var end: Double
    /// Note points earned in this line and the most it could earn.
    public var score: Double
    public var maxScore: Double
    /// Line bonus earned (share of the 1000).
    public var bonus: Double
    /// 0…1, see `ScoringRules.perfection`.
    public var perfection: Double
    public var rating: LineRating
    public var notes: [NoteResult]

    public init(
        lineIndex: Int, text: String, start: Double, end: Double, score: Double, maxScore: Double,
        bonus: Double, perfection: Double, rating: LineRating, notes: [NoteResult]
    ) {
        self.lineIndex = lineIndex
        self.text = text
        self.start = start
        self.end = end
        self.score = score
        self.maxScore = maxScore
        self.bonus = bonus
        self.perfection = perfection
        self.rating = rating
        self.notes = notes
    }

    /// Lines with nothing to judge (freestyle only) carry no rating weight.
    public var isJudged: Bool { maxScore > 0 }
}
