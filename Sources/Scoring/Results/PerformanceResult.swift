/// A whole performance of one part: every line and the total.
public struct PerformanceResult: Sendable, Equatable, Codable {
    public var partName: String
    public var basis: ScoreBasis
    public var configuration: ScoringConfiguration
    public var lines: [LineResult]

    public init(partName: String, basis: ScoreBasis, configuration: ScoringConfiguration, lines: [LineResult]) {
        self.partName = partName
        self.basis = basis
        self.configuration = configuration
        self.lines = lines
    }

    public var notesScore: Double { lines.reduce(0) { $0 + $1.score } }
    public var bonusScore: Double { lines.reduce(0) { $0 + $1.bonus } }
    /// Rounded total out of `configuration.rules.maxScore`.
    public var total: Int { Int((notesScore + bonusScore).rounded()) }
}
