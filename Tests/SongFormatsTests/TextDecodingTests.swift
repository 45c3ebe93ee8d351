import Testing
import SongFormats

@Suite struct TextDecodingTests {
    @Test func byteOrderMarksWin() {
        #expect(SongTextDecoder.decode([0xEF, 0xBB, 0xBF, 0x41]).text == "A")
        #expect(SongTextDecoder.decode([0xFF, 0xFE, 0x16, 0x04]) == .init(text: "Ж", encoding: .utf16LE))
        #expect(SongTextDecoder.decode([0xFE, 0xFF, 0x04, 0x16], declared: .cp1252).text == "Ж")
    }

    @Test func guessesLegacyCodePages() {
        // "привет мир" in KOI8-R and in CP1251.
        let koi8: [UInt8] = [0xD0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4, 0x20, 0xCD, 0xC9, 0xD2]
        let cp1251: [UInt8] = [0xEF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x20, 0xEC, 0xE8, 0xF0]
        #expect(SongTextDecoder.decode(koi8) == .init(text: "привет мир", encoding: .koi8R))
        #expect(SongTextDecoder.decode(cp1251) == .init(text: "привет мир", encoding: .cp1251))
        // "Grüße" in CP1252 and "smørbrød" in CP865.
        #expect(SongTextDecoder.decode([0x47, 0x72, 0xFC, 0xDF, 0x65]) == .init(text: "Grüße", encoding: .cp1252))
        let cp865: [UInt8] = [0x73, 0x6D, 0x9B, 0x72, 0x62, 0x72, 0x9B, 0x64]
        #expect(SongTextDecoder.decode(cp865) == .init(text: "smørbrød", encoding: .cp865))
        #expect(SongTextDecoder.decode(Array("plain ascii".utf8)).encoding == .utf8)
    }

    @Test func declaredEncodingsAndLabels() {
        #expect(SongTextEncoding(label: "windows-1252") == .cp1252)
        #expect(SongTextEncoding(label: "UTF8") == .utf8)
        #expect(SongTextEncoding(label: "koi8_r") == .koi8R)
        #expect(SongTextEncoding(label: "Latin1") == .latin1)
        #expect(SongTextEncoding(label: "klingon") == nil)
        #expect(SongTextDecoder.decode([0x80, 0x81], declared: .cp1252).text == "€\u{81}")
        #expect(SongTextDecoder.decode([0xE9], declared: .latin1).text == "é")
        #expect(SongTextDecoder.decode([0xB3], declared: .latin2).text == "ł")
    }
}
