import Foundation
import Testing
import SongFormats
import SongModel

@Suite struct UltraStarReaderTests {
    let header = "#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:150\n#GAP:1000\n"
    var beat: Double { 60 / (150.0 * 4) }

    @Test func notesLinesAndTimes() throws {
        let song = try readFixture(header + ": 0 4 0 Hel\n* 4 4 2 lo\n- 10\nF 12 2 0  free\nR 16 2 0  rap\nG 20 2 0  gold\nE\n: 99 1 0 ignored\n")
        let lines = song.parts[0].lines
        #expect(lines.count == 2)
        #expect(lines[0].text == "Hello")
        #expect(lines[0].start == 1)
        #expect(approx(lines[0].end, 1 + 10 * beat))
        #expect(lines[1].syllables.map { $0.note?.kind } == [.freestyle, .rap, .goldenRap])
        #expect(approx(lines[1].end, 1 + 22 * beat))
        #expect(song.parts[0].notes.count == 5)
        #expect(lines[0].syllables[1].note == Note(kind: .golden, startBeat: 4, lengthBeats: 4, pitch: 2))
    }

    @Test func lineWithoutPhraseEndBeatEndsAtNextLine() throws {
        let song = try readFixture(header + ": 0 4 0 a\n-\n: 20 4 0 b\nE\n")
        #expect(approx(song.parts[0].lines[0].end, 1 + 20 * beat))
    }

    @Test func phraseEndBeforeLastNoteEndKeepsTheNote() throws {
        let song = try readFixture(header + ": 0 8 0 a\n- 4\n: 20 4 0 b\nE\n")
        #expect(approx(song.parts[0].lines[0].end, 1 + 8 * beat))
    }

    @Test func crlfBomAndDecimalComma() throws {
        let text = "\u{FEFF}#TITLE:T\r\n#ARTIST:A\r\n#MP3:a.ogg\r\n#BPM:150,5\r\n#GAP:1000,5\r\n: 0 4 0 x\r\nE\r\n"
        let song = try readFixture(text)
        #expect(song.beatClock == BeatClock(bpm: 150.5, gapSeconds: 1.0005))
        #expect(song.parts[0].lines[0].text == "x")
    }

    @Test func utf16WithoutBOMIsDetected() throws {
        var bytes: [UInt8] = []
        for unit in (header + ": 0 4 0 Жж\nE\n").utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let song = try SongFileReader.read(bytes: bytes, path: "x.txt")
        #expect(song.parts[0].lines[0].text == "Жж")
    }

    @Test func declaredEncodingAppliesToEarlierHeaders() throws {
        // "Ç" in CP1250 is 0xC7; the tag comes after the title.
        let bytes = Array("#TITLE:".utf8) + [0xC7] + Array("\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#ENCODING:cp1250\n: 0 1 0 a\nE\n".utf8)
        #expect(try SongFileReader.read(bytes: bytes, path: "x.txt").metadata.title == "Ç")
    }

    @Test func relativeModeAndDuetVoices() throws {
        let text = "#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#RELATIVE:yes\n#DUETSINGERP1:Ann\n#P2:Bob\n#DUETSINGERP2:Ignored\n"
            + "P 1\n: 0 2 0 a\n: 2 2 0 b\n- 4 10\n: 0 2 0 c\nP2\n: 5 2 0 d\n- 7 7\n: 1 2 0 e\nE\n"
        let song = try readFixture(text)
        #expect(song.parts.map(\.name) == ["Ann", "Bob"])
        #expect(song.parts[0].notes.map(\.startBeat) == [0, 2, 10])
        #expect(song.parts[1].notes.map(\.startBeat) == [5, 8])
        #expect(song.isDuet)
    }

    @Test func version2CountsWholeBeatsAndMilliseconds() throws {
        let text = "#VERSION:2.0.0\n#TITLE:T\n#ARTIST:A\n#AUDIO:a.ogg\n#BPM:120\n#GAP:500\n#START:1500\n: 4 2 0 a\nE\n"
        let song = try readFixture(text)
        #expect(approx(song.parts[0].lines[0].start, 0.5 + 4 * 60 / 120))
        #expect(song.metadata.startSeconds == 1.5)
    }

    @Test func audioTagWinsOverMP3() throws {
        let song = try readFixture("#VERSION:1.1.0\n#TITLE:T\n#ARTIST:A\n#MP3:old.mp3\n#AUDIO:new.ogg\n#VOCALS:v.ogg\n#INSTRUMENTAL:i.ogg\n#BPM:100\n: 0 1 0 a\nE\n")
        #expect(song.metadata.audioFile == "new.ogg")
        #expect(song.metadata.backingTrackFile == "i.ogg")
        #expect(song.metadata.vocalsFile == "v.ogg")
    }

    /// Broken rules players work around: strictly an error on the line, leniently a warning on
    /// the same line saying what was assumed.
    static let workedAround: [(String, Int, String, String)] = [
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#BPM:120\n: 0 1 0 a\n", 5, "duplicate header #BPM", "line 4's value is used"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#RELATIVE:maybe\n: 0 1 0 a\n", 5, "#RELATIVE", "'no' is assumed"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 1 0 a\n: 1 x 0 b\n", 6, "expected length", "the note is skipped"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 1 0a\n", 5, "space after the pitch", "the rest of the line is the syllable"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 -1 0 a\n", 5, "negative", "read as 0 beats"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 4 1 0 a\n: 2 1 0 b\n", 6, "in order", "sorted"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\nP0\n: 4 1 0 a\n", 5, "P1…P9", "skipped"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 99999999999 0 a\n: 4 1 0 b\n", 5, "expected length", "skipped"),
        ("#TITLE:T\n#ARTIST:A\n#BPM:100\n: 0 1 0 a\n", 4, "#MP3", "lyrics-only"),
        ("#VERSION:3.0.0\n#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 1 0 a\n", 1, "#VERSION", "unversioned"),
        ("#VERSION:v1.1.0\n#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 1 0 a\n", 1, "#VERSION", "read as version 1.x"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#GAP\n: 0 1 0 a\n", 5, "no ':'", "ignored"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 1 0 a\n#GAP:5\n", 6, "after the notes", "skipped"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#YEAR:This\n: 0 1 0 a\n", 5, "#YEAR must be a whole number", "ignored"),
        ("#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 1 0 a\n", 4, "#TITLE", "'fixture' is used as title"),
        ("#TITLE:T\n#MP3:a.ogg\n#BPM:100\nP1\n: -1 2 0 a\n: 2 1 0 b\nP2\n: 0 2 0 c\n", 5, "beat -1 is negative", "kept before beat 0"),
    ]

    @Test(arguments: workedAround.indices)
    func strictReadingRejectsWithTheLine(index: Int) {
        let (text, line, message, _) = Self.workedAround[index]
        let error = readError(text, name: "fixture.txt", mode: .strict)
        #expect(error?.path == "fixture.txt")
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test(arguments: workedAround.indices)
    func lenientReadingWarnsWithTheLineAndTheAssumption(index: Int) throws {
        let (text, line, message, assumption) = Self.workedAround[index]
        let song = try readFixture(text, name: "fixture.txt")
        let warning = try #require(song.warnings.first { $0.line == line }, "\(song.warnings)")
        #expect(warning.message.contains(message) && warning.message.contains(assumption), "\(warning)")
        #expect(warning.description.hasPrefix("fixture.txt:\(line): warning: "))
        #expect(!song.parts.isEmpty && song.parts.allSatisfy { !$0.lines.isEmpty })
    }

    @Test func aFileDeclaredUTF8ButSavedInCP1252IsGuessed() throws {
        let bytes = Array("#TITLE:Caf".utf8) + [0xE9] + Array("\n#ENCODING:UTF8\n#MP3:a.ogg\n#BPM:100\n: 0 1 0 don".utf8) + [0x92, 0x74, 0x0A]
        let song = try SongFileReader.read(bytes: bytes, path: "x.txt")
        #expect(song.metadata.title == "Café")
        #expect(song.parts[0].lines[0].text == "don’t")
        #expect(song.warnings.map(\.line) == [2])
        #expect(song.warnings[0].message.contains("not valid UTF-8; read as CP1252"))
        #expect(readError(bytes: bytes, name: "x.txt", mode: .strict)?.line == 2)
    }

    @Test func lenientReadingKeepsWhatItCan() throws {
        // v1.1.0 read as 1.x: quarter beats; the beat -1 note of a duet kept one beat before #GAP.
        let duet = try readFixture("#VERSION:v1.1.0\n#TITLE:T\n#MP3:a.ogg\n#BPM:150\n#GAP:1000\nP1\n: -1 2 0 a\n: 2 1 0 b\nP2\n: 0 2 0 c\nE\n")
        #expect(duet.parts.count == 2)
        #expect(approx(duet.parts[0].lines[0].start, 1.0 - 60 / (150 * 4)))
        #expect(duet.parts[0].notes.map(\.startBeat) == [-1, 2])
        // Out of order notes are sorted; lines stay in order.
        let sorted = try readFixture("#TITLE:T\n#MP3:a.ogg\n#BPM:100\n: 4 1 0 a\n: 2 1 0 b\n- 6\n: 8 1 0 c\n")
        #expect(sorted.parts[0].notes.map(\.startBeat) == [2, 4, 8])
        // A missing #MP3 is a lyrics-only song: no audio, notes kept.
        let lyricsOnly = try readFixture("#TITLE:T\n#BPM:100\n: 0 1 0 a\n")
        #expect(lyricsOnly.metadata.audioFile == nil && lyricsOnly.hasNotes)
        // A clean file has no warnings.
        #expect(try readFixture("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n: 0 1 0 a\nE\n").warnings.isEmpty)
    }

    @Test(arguments: [
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:0\n: 0 1 0 a\n", 4, "positive"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:x\n: 0 1 0 a\n", 4, "#BPM must be a number"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n: 0 1 0 a\n", 4, "missing required header #BPM"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\nE\n", 5, "no notes"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\nhello\nworld\n", 5, "unrecognised line 'hello'"),
        ("#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\nhello\nworld\n", 5, "(no notes remain)"),
    ])
    func noUsableTimelineIsRejectedEvenLeniently(text: String, line: Int, message: String) {
        let error = readError(text, name: "bad.txt")
        #expect(error?.path == "bad.txt")
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func identicalDuplicatesAndUnknownTagsAreTolerated() throws {
        let song = try readFixture("#TITLE:T\n#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#FOO:1\n#FOO:2\n#:x\n#YEAR:\n: 0 1 0 a\nE\n")
        #expect(song.metadata.otherTags["FOO"] == "1")
        #expect(song.metadata.year == nil)
    }

    @Test func videoOnlySongsReadWithoutAudio() throws {
        let song = try readFixture("#TITLE:T\n#ARTIST:A\n#VIDEO:v.mp4\n#BPM:100\n: 0 1 0 a\nE\n")
        #expect(song.metadata.audioFile == nil)
        #expect(song.metadata.videoFile == "v.mp4")
    }
}
