import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

/// Spot checks of what corpus files contain once read.
@Suite(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absentReason)))
struct CorpusContentTests {
    func read(_ folder: String, _ name: String) throws -> Song {
        try SongFileReader.read(path: TestPaths.corpusFile(folder, name))
    }

    @Test func spaceInvadersTimesFollowTheBeatFormula() throws {
        let song = try read("ultrastar", "man0lis__ultrastar-txt__Pornophonique - Space Invaders.txt")
        #expect(song.metadata.title == "Space Invaders")
        #expect(song.metadata.artist == "Pornophonique")
        #expect(song.metadata.audioFile == "Pornophonique - Space Invaders.mp3")
        #expect(song.beatClock == BeatClock(bpm: 315.08, gapSeconds: 2.72))  // decimal comma
        #expect(song.parts.count == 1)
        #expect(song.parts[0].notes.count == 394)
        let first = song.parts[0].lines[0].syllables[0]
        #expect(first.text == "E")
        #expect(approx(first.start, 2.72 + 1 * 60 / (315.08 * 4)))
        // The first line ends at its "- 46" phrase end.
        #expect(approx(song.parts[0].lines[0].end, 2.72 + 46 * 60 / (315.08 * 4)))
        #expect(song.parts[0].lines[0].text == "Ev'ry time, I take a look")
    }

    @Test func duetNamesComeFromHeaders() throws {
        let song = try read("ultrastar", "man0lis__ultrastar-txt__duet_headings.txt")
        #expect(song.parts.map(\.name) == ["Singer 1", "Singer 2"])
        let play = try read("ultrastar", "UltraStar-Deluxe__Play__LoadAndSaveProperties.txt")
        #expect(play.parts.count == 2)
        let unnamed = try read("ultrastar", "man0lis__ultrastar-txt__survive_duett_tags.txt")
        #expect(unnamed.parts.map(\.name) == ["P1", "P2"])
        #expect(unnamed.parts[1].lines[0].syllables[0].start > unnamed.parts[0].lines[0].syllables[0].start)
    }

    @Test func noteKindsAreRead() throws {
        let song = try read("ultrastar", "man0lis__ultrastar-txt__rap_notes.txt")
        let kinds = song.parts[0].notes.map(\.kind)
        #expect(kinds.filter { $0 == .rap }.count == 4)
        #expect(kinds.filter { $0 == .goldenRap }.count == 1)
        #expect(kinds.filter { $0 == .golden }.count == 1)
        #expect(kinds.filter { $0 == .freestyle }.count == 2)
    }

    @Test(arguments: [
        ("UltraStar-Deluxe__Play__Windows1252.txt", "Tränenüberströmt nach Fußmassage", "Käse und Gemüse"),
        ("UltraStar-Deluxe__Play__ISO-8859-1.txt", "Tränenüberströmt nach Fußmassage", "Käse und Gemüse"),
        ("UltraStar-Deluxe__Play__koi8-r.txt", "Я люблю тебя", "Кириллица is Cyrillic"),
        ("UltraStar-Deluxe__Play__cp865.txt", "det finnes ikke dårlig vær, bare dårlige klær", "å være midt i smørøyet"),
        ("UltraStar-Deluxe__Play__cp865-explicit-encoding.txt", "det finnes ikke dårlig vær, bare dårlige klær", "å være midt i smørøyet"),
        ("UltraStar-Deluxe__Play__UTF16-LE-BOM.txt", "TestTitle___ä___ß___'___Ж", "TestArtist"),
        ("UltraStar-Deluxe__Play__UTF16-BE-BOM.txt", "TestTitle___ä___ß___'___Ж", "TestArtist"),
        ("UltraStar-Deluxe__Play__UTF8-BOM.txt", "TestTitle___ä___ß___'___Ж", "TestArtist"),
        ("UltraStar-Deluxe__Play__SongSearchTestSongs__ArtistHelloWithAccent.txt", "ArtistHelloWithAccent", "HèllóArtist"),
        ("UltraStar-Deluxe__USDX__Test - Test œ≈†®.txt", "Test œ≈†®", "Test"),
        ("man0lis__ultrastar-txt__encoding_header_tag.txt", "360° Hoshi no Orchestra (TV)", "petit milady"),
    ])
    func encodingsDecode(file: String, title: String, artist: String) throws {
        let song = try read("ultrastar", file)
        #expect(song.metadata.title == title)
        #expect(song.metadata.artist == artist)
    }

    @Test func windows1252LyricsDecode() throws {
        let song = try read("ultrastar", "UltraStar-Deluxe__Play__Windows1252.txt")
        #expect(song.parts[0].lines[0].text == "Süße Löwenbabys!")
    }

    @Test func versionedFilesUseTheirUnits() throws {
        let v1 = try read("ultrastar", "UltraStar-Deluxe__Play__v1.0.0.txt")
        #expect(v1.metadata.startSeconds == 4)
        #expect(v1.metadata.endSeconds == 5)
        #expect(v1.metadata.videoGapSeconds == 3)
        #expect(v1.metadata.medleyStartBeat == 4)
        #expect(approx(v1.parts[0].lines[0].start, 1 + 4 * 60 / 800))
        let v2 = try read("ultrastar", "UltraStar-Deluxe__Play__v2.0.0.txt")
        #expect(v2.metadata.startSeconds == 4)
        #expect(v2.metadata.videoGapSeconds == 3)
        #expect(v2.metadata.previewStartSeconds == 6)
        // 2.0: one beat is 60/BPM seconds.
        #expect(approx(v2.parts[0].lines[0].start, 1 + 4 * 60 / 200))
        #expect(v2.metadata.medleyStartBeat == Int(((8 - 1) * 200 / 60.0).rounded()))
    }

    @Test func relativeModeAddsOffsets() throws {
        let song = try read("ultrastar", "man0lis__ultrastar-txt__relative_line_breaks.txt")
        let notes = song.parts[0].notes
        #expect(notes.map(\.startBeat) == [0, 24])
        #expect(song.parts[0].lines.count == 2)
        #expect(approx(song.parts[0].lines[0].end, 0.666 + 20 * 60 / (123 * 4)))
    }

    @Test func medleyTagsAndMissingArtist() throws {
        let song = try read("ultrastar", "UltraStar-Deluxe__Play__MedleyTestSongs__OChristmasTree-MedleyStart-MedleyEnd.txt")
        #expect(song.metadata.title == "O Christmas Tree")
        #expect(song.metadata.artist == "")
        #expect(song.metadata.medleyStartBeat == 396)
        #expect(song.metadata.medleyEndBeat == 1045)
        #expect(song.metadata.otherTags["AUDIOLICENSE"] == "Public Domain")
    }

    @Test func enhancedLRCWordTiming() throws {
        let song = try read("lrc", "Dogdriip__elrc2json__example.lrc")
        let line = song.parts[0].lines[0]
        #expect(line.start == 4.286)
        #expect(line.syllables.map(\.text) == ["chu ", "chu ", "yeah！"])
        #expect(line.syllables.map(\.start) == [4.286, 4.449, 4.633])
        #expect(line.end == 7.502)
        let foobar = try read("lrc", "weirongxu__lrc-kit__fixtures_enhancedLrcFoobar2000Text.lrc")
        #expect(foobar.metadata.artist == "Enhanced Artist")
        #expect(foobar.parts[0].lines[1].syllables.map(\.start) == [9.25, 10.5, 11.75, 13.0])
        #expect(foobar.parts[0].lines[1].text == "feel the rhythm rise")
    }

    @Test func floVariantAndFloJSON() throws {
        let flo = try read("flo", "unattributed__flo-2020-challenge__lyrics.flo.txt")
        #expect(flo.source.format == .flo)
        #expect(flo.parts[0].lines[0].start == 16.2)
        #expect(flo.parts[0].lines[0].end == 18.3)
        #expect(flo.parts[0].lines[0].text == "we wish you a merry christmas")
        let json = try read("flo", "unattributed__flo-2020-challenge__song.json")
        #expect(json.metadata.title == "We Wish You A Merry Christmas")
        #expect(json.metadata.artist == "챔버오케스트라")
        #expect(json.metadata.lengthSeconds == 198)
        #expect(json.parts[0].lines.count == flo.parts[0].lines.count)
    }

    @Test func jsonCuesAndWebVTT() throws {
        let cues = try read("json", "osk__node-webvtt__README_parse_example.json")
        #expect(cues.parts[0].lines.first?.text == "Hello world!")
        #expect(cues.parts[0].lines[1].start == 30)
        #expect(cues.parts[0].lines[1].end == 31)
        let vtt = try read("webvtt", "osk__node-webvtt__subs1.vtt")
        #expect(vtt.parts[0].lines[0].start == 1.8)
        #expect(vtt.parts[0].lines[0].end == 5.16)
        #expect(vtt.parts[0].lines[0].text == "0")
        let acid = try read("webvtt", "osk__node-webvtt__acid.vtt")
        #expect(!acid.parts[0].lines.contains { $0.text.contains("should not be processed") })
        #expect(acid.parts[0].lines.contains { $0.text == "私わたしたち" })
    }
}
