import Foundation
import SongModel
import Testing
@testable import Scoring

@Suite struct DerivationTests {
    /// A guide singer: A4 0.5–1.0 s with jitter and one stray frame, a 40 ms breath,
    /// A4 again until 1.3 s, then C5 1.3–1.8 s, a 60 ms blip of D5, then silence.
    func guide() -> [PitchSample] {
        SampleSinger.samples(until: 2.5) { t in
            switch t {
            case 0.5..<1.0: return t > 0.7 && t < 0.715 ? 80 : 69 + 0.2 * sin(t * 40)
            case 1.0..<1.04: return nil
            case 1.04..<1.3: return 69.1
            case 1.3..<1.8: return 72 - 0.1 * cos(t * 30)
            case 1.9..<1.96: return 74
            default: return nil
            }
        }
    }

    @Test func segmentsMedianFilterMergeAndDropShortNotes() {
        let segments = NoteSegmenter().segments(guide())
        #expect(segments.map(\.midi) == [69, 72])
        #expect(abs(segments[0].start - 0.5) < 0.02 && abs(segments[0].end - 1.3) < 0.02)
        #expect(abs(segments[1].start - 1.3) < 0.02 && abs(segments[1].end - 1.8) < 0.02)
    }

    @Test func notesSnapToTheBeatGrid() {
        let segmenter = NoteSegmenter()
        let notes = segmenter.notes(from: segmenter.segments(guide()), clock: NoteSegmenter.defaultClock)
        #expect(notes == [
            Note(kind: .normal, startBeat: 10, lengthBeats: 16, pitch: 9),
            Note(kind: .normal, startBeat: 26, lengthBeats: 10, pitch: 12),
        ])
    }

    @Test func derivedSongSpreadsWordsAndScoresLikeAnyOther() throws {
        let lyrics = Song(
            metadata: .init(title: "Derived"),
            parts: [VoicePart(name: "Solo", lines: [
                LyricLine(start: 0.4, end: 2.0, syllables: [Syllable(text: "one two three", start: 0.4, end: 2.0)]),
            ])],
            beatClock: nil, source: SongSource(path: "d.lrc", format: .lrc))
        let segmenter = NoteSegmenter()
        let notes = segmenter.notes(from: segmenter.segments(guide()))
        let derived = DerivedSongBuilder.song(lyrics: lyrics, notes: notes, clock: NoteSegmenter.defaultClock, savedAs: "d.txt")
        #expect(derived.hasNotes)
        #expect(derived.parts[0].lines[0].syllables.map(\.text) == ["one", " two three"])
        var session = try ScoringSession(song: derived, configuration: .init(micDelay: 0), derivedNotes: true)
        session.feed(contentsOf: guide())
        let result = session.finish()
        #expect(result.basis == .derivedNotes)
        #expect(result.total >= 9500)
    }
}
