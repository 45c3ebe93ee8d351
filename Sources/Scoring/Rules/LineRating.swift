/// The verdict shown after each line, from the line's perfection (0…1).
public enum LineRating: String, Sendable, Equatable, CaseIterable, Codable, Comparable {
    case bad, notBad, good, great, perfect

    public init(perfection: Double) {
        switch perfection {
        case 0.95...: self = .perfect
        case 0.75...: self = .great
        case 0.5...: self = .good
        case 0.25...: self = .notBad
        default: self = .bad
        }
    }

    public var displayName: String {
        switch self {
        case .perfect: "Perfect"
        case .great: "Great"
        case .good: "Good"
        case .notBad: "Not bad"
        case .bad: "Bad"
        }
    }

    private var order: Int { LineRating.allCases.firstIndex(of: self)! }
    public static func < (a: LineRating, b: LineRating) -> Bool { a.order < b.order }
}
