import Foundation
import Testing
import SongFormats
import SongModel

/// TTML as Apple-style lyrics are written (`apple-roles.ttml`, laid out as the AMLL TTML
/// database's specification shows them, pretty-printed): translation, romanisation and
/// background vocals go with the line and are never sung text; whitespace follows `xml:space`.
@Suite struct TTMLRolesTests {
    static func read() throws -> Song {
        try SongFileReader.read(path: SubtitleReaderTests.fixture("apple-roles.ttml"), mode: .strict)
    }

    @Test func rolesAreCompanionsNotSungText() throws {
        let line = try Self.read().parts[0].lines[0]
        #expect(line.text == "紙の飛行機")
        #expect(line.syllables.map(\.start) == [1.0, 1.7, 2.4])
        #expect(line.syllables.map(\.end) == [1.6, 2.3, 3.6])
        #expect(line.start == 1.0 && line.end == 6.5)
        let companions = try #require(line.companions)
        // The first translation (the second, German, is not shown); indentation collapsed.
        #expect(companions.translation == "The paper plane")
        #expect(companions.romanization == "kami no hikouki")
        let background = try #require(companions.background)
        #expect(background.text == "(tonde yo)")
        #expect(background.syllables.map(\.start) == [4.5, 5.5])
        #expect(background.syllables.map(\.end) == [5.4, 6.5])
        #expect(background.start == 4.5 && background.end == 6.5)
        #expect(background.translation == "fly away")
        #expect(background.romanization == "tonde yo")
    }

    @Test func appleHeadTranslationWinsOverInline() throws {
        let line = try Self.read().parts[0].lines[1]
        #expect(line.text == "飛べ 紙飛行機")
        #expect(line.companions?.translation == "Fly, paper plane")
        #expect(line.companions?.background == nil)
    }

    @Test func whitespaceFollowsXMLSpace() throws {
        let lines = try Self.read().parts[0].lines
        // Spans written on two lines are two words; spans side by side one word.
        #expect(lines[2].text == "Paper planes")
        #expect(lines[2].syllables.map(\.text) == ["Pa", "per ", "planes"])
        #expect(lines[2].companions == nil)
        // xml:space="preserve" keeps the two spaces.
        #expect(lines[3].text == "one  two")
    }

    @Test func otherFormatsHaveNoCompanions() throws {
        let song = try SongFileReader.read(path: SubtitleReaderTests.fixture("paper-boats.ttml"))
        #expect(song.parts.allSatisfy { $0.lines.allSatisfy { $0.companions == nil } })
    }
}
