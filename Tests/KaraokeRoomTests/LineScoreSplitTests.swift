import KaraokeRoom
import RoomProtocol
import Scoring
import SongModel
import Testing

/// What a `lineScore` tells the score screen: the points split into normal notes, golden notes
/// and line bonus, and no verdict for a line with nothing to judge.
@Suite("lineScore: split and freestyle")
struct LineScoreSplitTests {
    @Test func pointsSplitIntoNotesGoldenAndBonus() {
        // One normal note of 4 beats all hit, one golden note of 2 beats half hit: weighted
        // credits 4 × 1 and 1 × 2, so the golden share of the 600 note points is 2/6.
        let line = LineResult(
            lineIndex: 3, text: "la la", start: 1, end: 2, score: 600, maxScore: 800, bonus: 80, maxBonus: 100,
            perfection: 0.75, rating: .great,
            notes: [NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4, creditedBeats: 4, deviationCents: 5),
                    NoteResult(text: "la", kind: .golden, targetMidi: 62, beats: 2, creditedBeats: 1, deviationCents: 20)])
        let payload = LineScorePayload(singer: 1, part: 0, result: line, songId: "s")
        #expect(payload.score == 680)
        #expect(payload.maxScore == 900)
        #expect(abs((payload.golden ?? -1) - 200) < 1e-9)
        #expect(abs((payload.notes ?? -1) - 400) < 1e-9)
        #expect(payload.bonus == 80)
        #expect(payload.rating == "great")
    }

    @Test func aFreestyleLineHasNoVerdict() {
        let line = LineResult(
            lineIndex: 0, text: "ad lib", start: 0, end: 1, score: 0, maxScore: 0, bonus: 0, maxBonus: 0,
            perfection: 0, rating: .bad,
            notes: [NoteResult(text: "ad lib", kind: .freestyle, targetMidi: nil, beats: 8, creditedBeats: 0, deviationCents: nil)])
        let payload = LineScorePayload(singer: 0, part: 0, result: line)
        #expect(payload.rating == "none", "a freestyle line is not 'poor'")
        #expect(payload.golden == 0 && payload.notes == 0 && payload.bonus == 0)
    }
}
