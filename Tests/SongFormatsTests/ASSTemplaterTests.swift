import Foundation
import Testing
import SongFormats
import SongModel

/// ASS as karaoke authors write it: Aegisub karaoke-templater files (`karaoke-templater.ass`,
/// laid out as Karaoke Mugen's files are) and the time forms libass accepts.
@Suite struct ASSTemplaterTests {
    @Test func templaterFileReadsItsKaraokeComments() throws {
        let song = try SongFileReader.read(path: SubtitleReaderTests.fixture("karaoke-templater.ass"), mode: .strict)
        let lines = song.parts[0].lines
        // Not the fx lines (which start 0.9 s earlier with a lead-in), not the code/template lines.
        #expect(lines.map(\.text) == ["Fold the paper, fold it twice", "Set it sailing on the ice"])
        #expect(lines.map(\.start) == [5.0, 8.5])
        #expect(lines.map(\.end) == [8.5, 12.0])
        let first = lines[0].syllables
        #expect(first.map(\.text) == ["Fold ", "the ", "pa", "per, ", "fold ", "it ", "twice"])
        // \k40 \k35 \k50 \k45 \k60 \k40 \k80 from 5.00 s.
        let starts = first.map { ($0.start * 100).rounded() / 100 }
        #expect(starts == [5.0, 5.4, 5.75, 6.25, 6.7, 7.3, 7.7])
        #expect(first.last?.end == 8.5)
    }

    @Test func templaterLinesAreNeverLyrics() throws {
        let text = """
        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.00,0:00:00.00,Default,,0,0,0,code once,x = 1
        Dialogue: 0,0:00:00.00,0:00:00.00,Default,,0,0,0,template syl,{\\pos($x,$y)}
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,fx,generated
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,sung
        """
        let song = try readFixture(text, name: "x.ass")
        #expect(song.parts[0].lines.map(\.text) == ["sung"])
        let onlyTemplater = readError(text.replacingOccurrences(of: "Default,,0,0,0,,sung", with: "Default,,0,0,0,fx,sung"), name: "x.ass")
        #expect(onlyTemplater?.message.contains("karaoke-templater") == true)
    }

    @Test func timeFormsLibassAccepts() throws {
        let text = "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,one\n"
            + "Dialogue: 0,0:0:3.0,0:0:4.5,Default,,0,0,0,,two\n"
            + "Dialogue: 0,00:01:05.25,0:01:06.250,Default,,0,0,0,,three\n"
        let song = try readFixture(text, name: "x.ass")
        #expect(song.parts[0].lines.map(\.start) == [1.0, 3.0, 65.25])
        #expect(song.parts[0].lines.map(\.end) == [2.0, 4.5, 66.25])
        // Read, with one warning naming the first line not written h:mm:ss.cc; strictly an error there.
        #expect(song.warnings.map(\.line) == [4])
        #expect(readError(text, name: "x.ass", mode: .strict)?.line == 4)
        #expect(readError(text.replacingOccurrences(of: "0:0:3.0", with: "0:0:3"), name: "x.ass", mode: .strict)?.message.contains("malformed") == true)
    }
}
