import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

/// SubRip, ASS/SSA and TTML, on the project's own fixtures (Tests/Fixtures/songs/formats) and
/// on the corpus' Karaoke Mugen file.
@Suite struct SubtitleReaderTests {
    static func fixture(_ name: String) -> String {
        TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/songs/formats/\(name)").path
    }

    @Test func subRipBlocksWithTheirTimes() throws {
        let song = try SongFileReader.read(path: Self.fixture("paper-boats.srt"))
        #expect(song.source.format == .subRip)
        let lines = song.parts[0].lines
        #expect(lines.map(\.text) == ["Paper boats on the river", "sail away & never return", "until the evening"])
        #expect(lines.map(\.start) == [1.2, 4.0, 7.0])
        #expect(lines.map(\.end) == [3.8, 6.5, 9.25])
        #expect(song.warnings.isEmpty)
    }

    @Test func subRipSkipsBrokenBlocksLeniently() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:0x,000 --> 00:00:04,000\nbad\n\nstray\n"
        let song = try readFixture(text, name: "x.srt")
        #expect(song.parts[0].lines.map(\.text) == ["ok"])
        #expect(song.warnings.map(\.line) == [6, 9])
        #expect(readError(text, name: "x.srt", mode: .strict)?.line == 6)
        #expect(readError("just text\n", name: "x.srt")?.message.contains("no timed subtitles") == true)
    }

    @Test func assKaraokeSyllablesFollowTheKTags() throws {
        let song = try SongFileReader.read(path: Self.fixture("paper-boats.ass"))
        #expect(song.source.format == .ass)
        #expect(song.metadata.title == "Paper Boats")
        let lines = song.parts[0].lines
        // The Comment template and the generated fx line are not lyrics.
        #expect(lines.count == 2)
        let first = lines[0]
        #expect(first.text == "Paper boats on, the river")
        #expect(first.syllables.map(\.text) == ["Pa", "per ", "boats ", "on, the ", "ri", "ver"])
        // \k50 \k30 \kf60 \k20(space) \ko40 \K50 \k50, centiseconds from the line start at 1.00 s.
        let starts = first.syllables.map { ($0.start * 100).rounded() / 100 }
        #expect(starts == [1.0, 1.5, 1.8, 2.6, 3.0, 3.5])
        #expect(approx(first.syllables[2].end, 2.4, 1e-9))
        #expect(lines[1].text == "Sail away and never return")
        #expect(lines[1].syllables.count == 1)
    }

    @Test(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absentReason)))
    func karaokeMugenFileReadsWithSyllables() throws {
        let path = SharedCorpus.directory.appendingPathComponent("ass/karaokemugen__karaokemugen-app__JPN - Dragon Ball Z - OP1 - Cha-la Head Cha-la.ass").path
        let song = try SongFileReader.read(path: path)
        let lines = song.parts[0].lines
        #expect(lines.count == 20)
        #expect(lines[0].text == "hikaru kumo o tsukinuke FLY AWAY")
        // {\fad(850,100)\k90}{\k16}hi: 0.90 s lead-in, then "hi" for 0.16 s.
        #expect(approx(lines[0].syllables[0].start, 12.84 + 0.90, 1e-9))
        #expect(approx(lines[0].syllables[0].end, 12.84 + 0.90 + 0.16, 1e-9))
        #expect(lines.allSatisfy { line in line.syllables.allSatisfy { $0.start >= line.start && $0.end <= line.end + 1e-9 } })
    }

    @Test func appleStyleTTMLHasWordTimesAndSingers() throws {
        let song = try SongFileReader.read(path: Self.fixture("paper-boats.ttml"))
        #expect(song.source.format == .ttml)
        #expect(song.metadata.title == "Paper Boats")
        #expect(song.parts.map(\.name) == ["Ana", "Ben"])
        let first = song.parts[0].lines[0]
        #expect(first.text == "Paper boats on water")
        #expect(first.syllables.map(\.text) == ["Pa", "per ", "boats ", "on ", "water"])
        #expect(first.syllables.map(\.start) == [1.0, 1.4, 1.8, 2.6, 3.0])
        #expect(first.end == 3.9)
        #expect(song.parts[1].lines[0].text == "sail away")
        #expect(song.parts[1].lines[0].end == 6.5)  // m:ss.fff
    }

    @Test func standardTTMLTimesAreRelativeToTheParagraph() throws {
        let song = try SongFileReader.read(path: Self.fixture("paper-boats-dfxp.ttml"))
        let lines = song.parts[0].lines
        #expect(lines.map(\.text) == ["Paper boats float", "home again"])
        #expect(lines[0].start == 10 && lines[0].end == 13)           // 00:00:13:00 at 25 fps
        #expect(lines[0].syllables.map(\.start) == [10, 11, 12])     // 1s and 20000000 ticks after 10 s
        #expect(lines[1].start == 15 && lines[1].end == 17)           // dur="2s"
        #expect(song.warnings.count == 1 && song.warnings[0].message.contains("no begin time"))
    }

    @Test func brokenXMLNamesTheLine() {
        let error = readError("<?xml version=\"1.0\"?>\n<tt>\n<body><p begin=\"1s\">a</body>\n</tt>\n", name: "b.ttml")
        #expect(error?.line == 3, "\(String(describing: error))")
        #expect(error?.message.contains("invalid XML") == true)
        #expect(readError("<html><body/></html>", name: "b.ttml")?.message.contains("<tt>") == true)
    }

    @Test func externalEntitiesAreNotResolved() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE tt [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>\n<tt><body><p begin=\"1s\" end=\"2s\">a&x;b</p></body></tt>\n"
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "\u{0}"
        if let song = try? readFixture(text, name: "e.ttml") {
            #expect(!song.parts[0].lines[0].text.contains(hostname))
        }
    }
}
