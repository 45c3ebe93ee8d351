import Foundation
import Testing
import SongFormats
import SongModel

/// KAR/MIDI as karaoke files are made: the Soft Karaoke "Words" track wins over a copy of the
/// words in lyric events, `%` codes and `@` tags are not words, line marks leave the text, and a
/// tool's banner line is metadata. Fixtures written by `make-midi-fixtures.py` (120 BPM: a
/// quarter is 0.5 s; the words start at quarter 4 = 2.0 s, each line two bars later).
@Suite struct SoftKaraokeTests {
    static let lines = ["Fold the paper", "Set it sailing", "Round and round"]
    static let syllables = [["Fold ", "the ", "pa", "per"], ["Set ", "it ", "sail", "ing"], ["Round ", "and ", "round"]]
    static let starts: [[Double]] = [[2.0, 2.5, 3.0, 3.25], [4.0, 4.5, 5.0, 5.25], [6.0, 6.5, 7.0]]
    static let keys = [[60, 62, 64, 62], [60, 59, 57, 55], [60, 64, 67]]

    func expectTheSong(_ song: Song) {
        let lines = song.parts[0].lines
        #expect(lines.map(\.text) == Self.lines)
        #expect(lines.map { $0.syllables.map(\.text) } == Self.syllables)
        #expect(lines.map { $0.syllables.map(\.start) } == Self.starts)
        #expect(lines.map { $0.syllables.map { $0.note?.midi ?? -1 } } == Self.keys)
        // Each line's last note ends one tick (1/960 s) before the next line's first.
        #expect(lines.map { abs($0.end - ($0.start + 2)) < 0.002 } == [true, true, true])
    }

    @Test func wordsTrackWinsOverLyricEvents() throws {
        let song = try SongFileReader.read(path: SubtitleReaderTests.fixture("soft-karaoke.kar"), mode: .strict)
        expectTheSong(song)
        #expect(song.metadata.title == "Paper Boats")
        #expect(song.metadata.artist == "Karaoke Test Band")
        #expect(song.metadata.language == "ENGL")
        #expect(song.metadata.otherTags["INFO"] == "Made for the karaoke tests")
        #expect(song.metadata.otherTags["MIDI_LYRICS"] == "text events of the Words track (.kar)")
        #expect(song.warnings.isEmpty)
    }

    @Test func aBannerFirstLineIsMetadata() throws {
        let song = try SongFileReader.read(path: SubtitleReaderTests.fixture("banner-lyrics.mid"), mode: .strict)
        expectTheSong(song)
        #expect(song.metadata.otherTags["BANNER"] == "Created with KarMaker 2.1 (unregistered version)")
    }
}
