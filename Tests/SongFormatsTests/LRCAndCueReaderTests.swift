import Foundation
import Testing
import SongFormats
import SongModel

@Suite struct LRCReaderTests {
    @Test func severalStampsOffsetAndTags() throws {
        let text = "[ti:Song]\n[ar:Someone]\n[al:Album]\n[length:03:20]\n[offset:+500]\n[00:10.00][00:30.00]Chorus\n[00:20.50]Verse\ncomment line\n[00:40.000]\n"
        let song = try readFixture(text, name: "a.lrc")
        #expect(song.metadata.title == "Song")
        #expect(song.metadata.artist == "Someone")
        #expect(song.metadata.album == "Album")
        #expect(song.metadata.lengthSeconds == 200)
        let lines = song.parts[0].lines
        #expect(lines.map(\.text) == ["Chorus", "Verse", "Chorus"])
        #expect(lines.map(\.start) == [9.5, 20.0, 29.5])
        // The empty line at 00:40 ends the last sung line and is not shown.
        #expect(lines.map(\.end) == [20.0, 29.5, 39.5])
    }

    @Test func enhancedWordsAndMillisecondStamps() throws {
        let song = try readFixture("[00:01.5]<00:01.500> one <00:02.250> two <00:03.000>\n[01:00.123]three\n", name: "a.lrc")
        let line = song.parts[0].lines[0]
        #expect(line.syllables.map(\.text) == ["one ", "two"])
        #expect(line.syllables.map(\.start) == [1.5, 2.25])
        #expect(line.syllables.map(\.end) == [2.25, 3.0])
        #expect(song.parts[0].lines[1].start == 60.123)
        #expect(song.parts[0].lines[1].end == 63.123)
    }

    @Test func floStamps() throws {
        let song = try readFixture("[00:16:200]we wish you\n[00:18:300]a merry christmas\n", name: "x.txt")
        #expect(song.source.format == .flo)
        #expect(song.parts[0].lines.map(\.start) == [16.2, 18.3])
    }

    static let brokenLRC: [(String, Int, String, String)] = [
        ("[00:01.00]a\n[00:7x.00]b\n", 2, "malformed timestamp", "the line is skipped"),
        ("[offset:soon]\n[00:01.00]a\n", 1, "[offset:]", "no offset is applied"),
        ("[offset:+1.1]\n[00:01.00]a\n", 1, "[offset:]", "read as 1.1 ms"),
        ("[length:How long the song is]\n[00:01.00]a\n", 1, "[length:]", "the tag is ignored"),
        ("[00:01.00]a\n[02:83.37]b\n", 2, "more than 59 seconds", "read as 3:23.37"),
        ("[00:01.00]a <00:02.00> b <00:01.50> c\n", 1, "earlier", "the stamp is ignored"),
    ]

    @Test(arguments: brokenLRC.indices)
    func brokenLRCIsAnErrorStrictly(index: Int) {
        let (text, line, message, _) = Self.brokenLRC[index]
        let error = readError(text, name: "bad.lrc", mode: .strict)
        #expect(error?.line == line)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test(arguments: brokenLRC.indices)
    func brokenLRCReadsLenientlyWithAWarning(index: Int) throws {
        let (text, line, message, assumption) = Self.brokenLRC[index]
        let song = try readFixture(text, name: "bad.lrc")
        let warning = try #require(song.warnings.first, "no warning")
        #expect(warning.line == line && warning.message.contains(message) && warning.message.contains(assumption), "\(warning)")
    }

    @Test func stampsPlayersAccept() throws {
        let song = try readFixture("[length:225]\n[01:02:03.50]a\n[00:01.2345]b\n", name: "x.lrc")
        #expect(song.warnings.isEmpty)
        #expect(song.metadata.lengthSeconds == 225)
        #expect(song.parts[0].lines.map(\.start) == [1.2345, 3723.5])
        #expect(try readFixture("[00:16:200]x\n", name: "x.lrc").parts[0].lines[0].start == 16.2)  // FLO stays FLO
    }

    @Test func lenientLRCValues() throws {
        #expect(try readFixture("[00:01.00]a\n[02:83.37]b\n", name: "x.lrc").parts[0].lines[1].start == 203.37)
        let offset = try readFixture("[offset:+1.1]\n[00:01.00]a\n[00:02.00]b\n", name: "x.lrc")
        #expect(approx(offset.parts[0].lines[0].start, 1 - 0.0011))
        let words = try readFixture("[00:01.00]a <00:02.00> b <00:01.50> c\n", name: "x.lrc").parts[0].lines[0]
        #expect(words.syllables.map(\.start) == [1, 2])
        #expect(words.text.split(separator: " ") == ["a", "b", "c"])
    }

    @Test func noTimedLinesIsAnError() {
        #expect(readError("[ar:x]\nhello\n", name: "e.lrc")?.message.contains("no timed") == true)
    }
}

@Suite struct CueReaderTests {
    @Test func jsonCueArray() throws {
        let text = #"[{"identifier":"1","start":17.17,"end":19.9,"text":"first\nline","styles":""},{"identifier":"2","start":"20,5","end":22,"text":"second"}]"#
        let song = try readFixture(text, name: "c.json")
        #expect(song.parts[0].lines.map(\.text) == ["first line", "second"])
        #expect(song.parts[0].lines.map(\.start) == [17.17, 20.5])
        #expect(song.parts[0].lines[0].end == 19.9)
    }

    @Test func jsonErrorsNameTheCueLine() {
        let text = "[\n  {\"start\": 1, \"end\": 2, \"text\": \"a\"},\n  {\"start\": 5, \"end\": 3, \"text\": \"b\"}\n]"
        let error = readError(text, name: "c.json", mode: .strict)
        #expect(error?.line == 3)
        #expect(error?.message.contains("cue 2") == true)
        // Leniently the broken cue is skipped with a warning on its line.
        let song = try? readFixture(text, name: "c.json")
        #expect(song?.parts[0].lines.map(\.text) == ["a"])
        #expect(song?.warnings.map(\.line) == [3])
        #expect(readError("[{\"start\": 1,, }]", name: "c.json")?.message.contains("invalid JSON") == true)
        #expect(readError("{\"x\": 1}", name: "c.json")?.line == 1)
        #expect(readError("[\n {\"start\": 1,\n  \"end\": x}\n]\n", name: "c.json")?.line == 3)
        #expect(readError("[\n {\"start\": 1,\n  \"end\": 0, \"text\": \"a\"}\n]\n", name: "c.json")?.message.contains("no usable cue remains") == true)
        #expect(readError(String(repeating: "[", count: 100_000), name: "deep.json")?.message.contains("invalid JSON") == true)
    }

    @Test func webVTTCuesTagsAndKaraokeTimestamps() throws {
        let text = "WEBVTT - demo\n\nNOTE a comment\n\n1\n00:00:01.000 --> 00:00:04.000 align:start\n<v Singer>Hel<00:00:02.000>lo &amp; <00:00:03.000>bye</v>\n\n00:05.000 --> 00:06.500\nsecond\nline\n"
        let song = try readFixture(text, name: "s.vtt")
        let lines = song.parts[0].lines
        #expect(lines.count == 2)
        #expect(lines[0].syllables.map(\.text) == ["Hel", "lo & ", "bye"])
        #expect(lines[0].syllables.map(\.start) == [1, 2, 3])
        #expect(lines[1].text == "second line")
        #expect(lines[1].end == 6.5)
    }

    @Test func webVTTNeedsItsSignature() {
        #expect(readError("00:00:01.000 --> 00:00:02.000\nx\n", name: "s.vtt")?.line == 1)
    }

    @Test func assIsRejectedAsUnsupported() {
    }
}
