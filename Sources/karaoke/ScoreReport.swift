import Foundation
import KaraokeRoom
import Scoring

/// What `karaoke score` prints, as text or JSON.
struct ScoreReport: Encodable {
    var title: String
    var artist: String
    var songId: String
    var part: String
    var basis: ScoreBasis
    var basisExplanation: String
    var configuration: ScoringConfiguration
    var lines: [LineResult]
    var notesScore: Double
    var bonusScore: Double
    var total: Int
    var maxScore: Double
    var derivedNotesPath: String?
    var warnings: [String]
    var savedPerformanceId: Int64?
    /// The backing the recording's bleed was suppressed against.
    var reference: BackingReference

    init(_ score: OfflineScore, songId: String, savedId: Int64?) {
        title = score.song.metadata.title
        artist = score.song.metadata.artist
        self.songId = songId
        part = score.result.partName
        basis = score.result.basis
        basisExplanation = score.result.basis.explanation
        configuration = score.result.configuration
        lines = score.result.lines
        notesScore = score.result.notesScore
        bonusScore = score.result.bonusScore
        total = score.result.total
        maxScore = score.result.configuration.rules.maxScore
        derivedNotesPath = score.derivedNotesPath
        warnings = score.warnings
        savedPerformanceId = savedId
        reference = score.reference
    }

    func jsonText() throws -> String {
        try JSONOutput.string(self)
    }

    func text() -> String {
        let c = configuration
        var out = "\(title) — \(artist)  [\(part); \(c.difficulty.rawValue), \(c.mode.rawValue), key \(c.keyShift >= 0 ? "+" : "")\(c.keyShift), "
            + "tempo \(String(format: "%.2f", c.tempo)), mic delay \(Int((c.micDelay * 1000).rounded())) ms]\n"
        out += "Basis: \(basisExplanation)\n"
        out += "Bleed reference: " + (reference.path.map { "\($0) (\(reference.origin == .song ? "the song's backing track" : "--backing"))" }
            ?? "none (microphone analysed alone)") + "\n"
        for warning in warnings { out += "Note: \(warning)\n" }
        out += "   #  rating    score  bonus  line\n"
        for line in lines {
            let rating = line.isJudged ? line.rating.displayName : "-"
            out += String(format: "%4d  ", line.lineIndex + 1) + rating.padding(toLength: 8, withPad: " ", startingAt: 0)
                + String(format: " %6.0f %6.0f  ", line.score, line.bonus)
                + line.text.trimmingCharacters(in: .whitespaces) + "\n"
            if c.mode == .practice {
                let cents = line.notes.compactMap { note in
                    note.deviationCents.map { "\(note.text.trimmingCharacters(in: .whitespaces)) \($0 >= 0 ? "+" : "")\(Int($0.rounded()))¢" }
                }
                if !cents.isEmpty { out += "        " + cents.joined(separator: "  ") + "\n" }
            }
        }
        out += String(format: "Total: %d / %.0f  (notes %.0f + line bonus %.0f)\n", total, maxScore, notesScore, bonusScore)
        if let derivedNotesPath { out += "Derived notes saved to \(derivedNotesPath)\n" }
        if let savedPerformanceId { out += "Saved as performance \(savedPerformanceId).\n" }
        return out
    }
}
