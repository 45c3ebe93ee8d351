import EventServer
import Scoring

extension LineScorePayload {
    /// The event for one closed line of one singer: note points plus line bonus, out of both maxima.
    public init(singer: Int, part: Int, result: LineResult, songId: String? = nil) {
        self.init(
            singer: singer, part: part, line: result.lineIndex, score: result.score + result.bonus,
            maxScore: result.maxScore + result.maxBonus,
            rating: Self.protocolRating(result.rating), songId: songId)
    }

    /// The protocol's rating words (`perfect`, `great`, `good`, `ok`, `poor`).
    static func protocolRating(_ rating: LineRating) -> String {
        switch rating {
        case .perfect: "perfect"
        case .great: "great"
        case .good: "good"
        case .notBad: "ok"
        case .bad: "poor"
        }
    }
}
