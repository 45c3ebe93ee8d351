/// How a judged beat earns credit.
public enum ScoringMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// All-or-nothing per beat within the difficulty's tolerance (UltraStar rules).
    case ultraStar = "ultrastar"
    /// Continuous credit falling with pitch error, for practice; difficulty is ignored.
    case practice
}
