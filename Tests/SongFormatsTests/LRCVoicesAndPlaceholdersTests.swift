import Foundation
import Testing
import SongFormats
import SongModel

/// ESLyric's `[00:00.000]` placeholders and duet voice marks, on the fixtures
/// `eslyric-placeholders.lrc` and `duet-voices.lrc` (expected values read off the files by hand).
@Suite struct LRCVoicesAndPlaceholdersTests {
    @Test func eslyricPlaceholdersAreUntimedLinesNotErrors() throws {
        let song = try SongFileReader.read(path: SubtitleReaderTests.fixture("eslyric-placeholders.lrc"), mode: .strict)
        let lines = song.parts[0].lines
        // The three [00:00.000] lines (credits, "Chorus" after 00:09.48) are not sung lines.
        #expect(lines.map(\.text) == ["Fold the paper, fold it twice", "Set it sailing on the ice", "Paper boats go round and round"])
        #expect(lines.map(\.start) == [5.12, 9.48, 13.9])
        #expect(lines.map(\.end) == [9.48, 13.9, 18.2])
        #expect(song.warnings.isEmpty)
    }

    @Test func oneLineAtZeroIsStillALine() throws {
        let song = try readFixture("[00:00.00]We aim for the sky\n[00:08.56]Then the ground\n", name: "x.lrc")
        #expect(song.parts[0].lines.map(\.text) == ["We aim for the sky", "Then the ground"])
        #expect(song.parts[0].lines[0].end == 8.56)
    }

    @Test func onlyPlaceholdersIsNotATimeline() {
        let error = readError("[00:00.000]one\n[00:00.000]two\n", name: "x.lrc")
        #expect(error?.message.contains("ESLyric") == true, "\(String(describing: error))")
    }

    @Test func voiceMarksMakeADuet() throws {
        let song = try SongFileReader.read(path: SubtitleReaderTests.fixture("duet-voices.lrc"), mode: .strict)
        #expect(song.parts.map(\.name) == ["P1", "P2"])
        let p1 = song.parts[0].lines, p2 = song.parts[1].lines
        #expect(p1.map(\.text) == ["Light the lantern on the hill", "We meet halfway"])
        #expect(p1.map(\.start) == [2.0, 12.25])
        #expect(p1.map(\.end) == [5.5, 15.0])
        #expect(p1[1].syllables.map(\.text) == ["We ", "meet ", "half", "way"])
        #expect(p1[1].syllables.map(\.start) == [12.25, 12.8, 13.4, 13.9])
        // The unmarked line is sung by the voice of the mark before it (v2).
        #expect(p2.map(\.text) == ["Light the lantern by the mill", "Carry it across the water"])
        #expect(p2.map(\.start) == [5.5, 9.0])
        #expect(p2.map(\.end) == [9.0, 12.25])
    }

    @Test func walaokeMarksAndBothVoices() throws {
        let song = try readFixture("[00:01.00]F: high\n[00:02.00]M: low\n[00:03.00]D: together\n[00:04.00]\n", name: "x.lrc")
        #expect(song.parts.map(\.name) == ["Male", "Female"])
        #expect(song.parts[0].lines.map(\.text) == ["low", "together"])
        #expect(song.parts[1].lines.map(\.text) == ["high", "together"])
    }

    @Test func aLoneMarkIsLyrics() throws {
        let song = try readFixture("[00:01.00]D: is a letter\n[00:02.00]and so on\n", name: "x.lrc")
        #expect(song.parts.count == 1)
        #expect(song.parts[0].lines[0].text == "D: is a letter")
    }
}
