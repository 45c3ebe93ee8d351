import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

/// The same song in a legacy code page and in UTF-8 must read to the same text.
@Suite struct LegacyEncodingTwinTests {
    /// "I don’t know…" from a Windows machine (0x92 = ’, 0x85 = …) and its UTF-8 twin.
    static let cp1252Song: [UInt8] = Array("#TITLE:Don".utf8) + [0x92] + Array("t Stop\n#ARTIST:Caf".utf8) + [0xE9]
        + Array("\n#MP3:a.ogg\n#BPM:100\n: 0 2 0 I don".utf8) + [0x92] + Array("t\n: 4 2 0  know".utf8) + [0x85]
        + Array("\n- 8\n: 10 2 0 Gr".utf8) + [0xFC, 0xDF] + Array("e an die M".utf8) + [0xE4, 0x64, 0x63, 0x68, 0x65, 0x6E]
        + Array("\nE\n".utf8)
    static let utf8Twin = "#TITLE:Don’t Stop\n#ARTIST:Café\n#MP3:a.ogg\n#BPM:100\n: 0 2 0 I don’t\n: 4 2 0  know…\n- 8\n: 10 2 0 Grüße an die Mädchen\nE\n"

    @Test func cp1252RightQuoteIsAnApostropheNotAE() throws {
        let legacy = try SongFileReader.read(bytes: Self.cp1252Song, path: "cp1252.txt")
        let twin = try SongFileReader.read(bytes: Array(Self.utf8Twin.utf8), path: "utf8.txt")
        #expect(legacy.metadata.title == "Don’t Stop")
        #expect(legacy.metadata.artist == "Café")
        #expect(legacy.parts[0].lines.map(\.text) == twin.parts[0].lines.map(\.text))
        #expect(legacy.parts[0].lines[0].text == "I don’t know…")
        #expect(SongTextDecoder.decode(Self.cp1252Song).encoding == .cp1252)
    }

    @Test(arguments: [
        // Polish in CP1250 ("Zażółć gęślą jaźń"), Russian in CP1251 and KOI8-R, Norwegian in CP865.
        ([0x5A, 0x61, 0xBF, 0xF3, 0xB3, 0xE6, 0x20, 0x67, 0xEA, 0x9C, 0x6C, 0xB9, 0x20, 0x6A, 0x61, 0x9F, 0xF1] as [UInt8],
         SongTextEncoding.cp1250, "Zażółć gęślą jaźń"),
        ([0xFF, 0x20, 0xEB, 0xFE, 0xE1, 0xEB, 0xFE, 0x20, 0xF2, 0xE5, 0xE1, 0xFF], .cp1251, "я люблю тебя"),
        ([0xD1, 0x20, 0xCC, 0xC0, 0xC2, 0xCC, 0xC0, 0x20, 0xD4, 0xC5, 0xC2, 0xD1], .koi8R, "я люблю тебя"),
        ([0x73, 0x6D, 0x9B, 0x72, 0x9B, 0x79, 0x65, 0x74, 0x20, 0x6B, 0x6C, 0x91, 0x72], .cp865, "smørøyet klær"),
        ([0x64, 0x6F, 0x6E, 0x92, 0x74, 0x20, 0x63, 0x61, 0x66, 0xE9], .cp1252, "don’t café"),
    ])
    func guessesTheCodePageAndRoundTrips(bytes: [UInt8], encoding: SongTextEncoding, text: String) {
        let decoded = SongTextDecoder.decode(bytes)
        #expect(decoded.encoding == encoding)
        #expect(decoded.text == text)
        #expect(IconvConverter.encode(decoded.text, to: encoding.iconvName) == bytes)
    }

    @Test func undefinedBytesDoNotFailTheFile() {
        // 0x81 is undefined in CP1252: it becomes U+0081, the rest still decodes.
        #expect(SongTextDecoder.decode([0x80, 0x81, 0x41], declared: .cp1252).text == "€\u{81}A")
        #expect(IconvConverter.decode([0x81, 0x92][...], from: "CP1252")?.undefinedBytes == 1)
        #expect(IconvConverter.decode([0x41][...], from: "NO-SUCH-CODEPAGE") == nil)
    }

    // MARK: corpus

    /// Each legacy (8-bit) file in the corpus and the code page its name says it is in.
    static let corpusLegacy: [(String, SongTextEncoding)] = [
        ("UltraStar-Deluxe__Play__Windows1252.txt", .cp1252),
        ("UltraStar-Deluxe__Play__ISO-8859-1.txt", .latin1),
        ("UltraStar-Deluxe__Play__koi8-r.txt", .koi8R),
        ("UltraStar-Deluxe__Play__cp865.txt", .cp865),
        ("UltraStar-Deluxe__Play__cp865-explicit-encoding.txt", .cp865),
    ]

    @Test(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absentReason)))
    func everyLegacyCorpusFileIsListed() throws {
        let dir = SharedCorpus.directory.appendingPathComponent("ultrastar")
        var legacy: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            if SongTextDecoder.byteOrderMark(bytes) == nil, String(validating: bytes, as: UTF8.self) == nil { legacy.append(name) }
        }
        #expect(legacy.sorted() == Self.corpusLegacy.map(\.0).sorted())
    }

    /// The UTF-8 twin is made by the system's `iconv` program from the code page the file's
    /// name gives; the reader must guess (or be told by `#ENCODING`) and read the same text,
    /// and its text must encode back to the original bytes.
    @Test(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absentReason)),
          arguments: corpusLegacy.indices)
    func legacyCorpusFileReadsLikeItsUTF8Twin(index: Int) throws {
        let (name, encoding) = Self.corpusLegacy[index]
        let path = SharedCorpus.directory.appendingPathComponent("ultrastar").appendingPathComponent(name).path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let twinBytes = try iconvProgram(path: path, from: encoding.iconvName)
        let twinText = try #require(String(validating: twinBytes, as: UTF8.self))
        // A UTF-8 twin does not declare the legacy code page.
        let twinSong = twinText.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.uppercased().hasPrefix("#ENCODING") }.joined(separator: "\n")

        let decoded = SongTextDecoder.decode(bytes, declared: nil)
        #expect(decoded.text == twinText,
                "\(name): guessed \(decoded.encoding)")
        let legacy = try SongFileReader.read(path: path)
        let twin = try SongFileReader.read(bytes: Array(twinSong.utf8), path: name + ".utf8.txt")
        #expect(legacy.metadata.title == twin.metadata.title)
        #expect(legacy.metadata.artist == twin.metadata.artist)
        #expect(legacy.parts.map { $0.lines.map(\.text) } == twin.parts.map { $0.lines.map(\.text) })
        #expect(IconvConverter.encode(twinText, to: encoding.iconvName) == bytes, "\(name) does not round-trip")
    }

    private func iconvProgram(path: String, from encoding: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        process.arguments = ["-f", encoding, "-t", "UTF-8", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return [UInt8](data)
    }
}
