import RoomProtocol
import Scoring
import SongModel

extension LineScorePayload {
    /// The event for one closed line of one singer: note points plus line bonus, out of both
    /// maxima, with the split into normal notes, golden notes and bonus for the score screen.
    public init(singer: Int, part: Int, result: LineResult, songId: String? = nil) {
        let golden = Self.goldenPoints(result)
        self.init(
            singer: singer, part: part, line: result.lineIndex, score: result.score + result.bonus,
            maxScore: result.maxScore + result.maxBonus,
            rating: result.isJudged ? Self.protocolRating(result.rating) : "none", songId: songId,
            notes: result.score - golden, golden: golden, bonus: result.bonus)
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

    /// The share of the line's note points earned on golden notes: points follow credited beats
    /// times the note's weight, the same for every note of a line.
    static func goldenPoints(_ result: LineResult) -> Double {
        var golden = 0.0, all = 0.0
        for note in result.notes {
            let kind = NoteKind(rawValue: note.kind) ?? .normal
            let weighted = note.creditedBeats * ScoringRules.weight(of: kind)
            all += weighted
            if kind == .golden || kind == .goldenRap { golden += weighted }
        }
        return all > 0 ? result.score * golden / all : 0
    }
}
