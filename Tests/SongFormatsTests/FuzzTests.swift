import Foundation
import Testing
import TestSupport
import SongFormats
import SongModel

/// Random and mutated input must make every reader return or throw `SongFileError`
/// (typed throws guarantee the error type) quickly — never crash or hang.
@Suite struct FuzzTests {
    static let extensions = ["txt", "lrc", "json", "vtt", "ass", "bin", "srt", "ttml", "kar", "mid"]

    @Test func randomBytes() {
        var rng = SeededGenerator(seed: 0x5EED_0001)
        let started = Date()
        for i in 0..<1500 {
            let count = Int.random(in: 0...600, using: &rng)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Half the cases look like the start of a real file so the parsers get past the first line.
            if i % 2 == 0 {
                let prefixes = ["#TITLE:x\n#ARTIST:y\n#MP3:a\n#BPM:100\n", "[00:01.00]", "WEBVTT\n\n", "[{\"start\":", ": 0 1 0 ",
                                "1\n00:00:01,000 --> ", "<tt><body><p begin=\"1s\" end=\"2s\">",
                                "[Script Info]\n[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,,,0,0,0,,{\\k", "MThd\0\0\0\u{6}\0\u{1}\0\u{2}\u{1}\u{E0}MTrk"]
                bytes = Array(prefixes[i / 2 % prefixes.count].utf8) + bytes
            }
            check(bytes, name: "fuzz.\(Self.extensions[i % Self.extensions.count])")
        }
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absentReason)))
    func mutatedCorpusFiles() throws {
        let files = TestPaths.corpusFiles()
        try #require(!files.isEmpty, "corpus not found at \(TestPaths.corpus.path)")
        let originals = files.map { (name: ($0 as NSString).lastPathComponent, bytes: [UInt8](FileManager.default.contents(atPath: $0) ?? Data())) }
        mutate(originals, seed: 0x5EED_0002, rounds: 2500)
    }

    /// The project's own subtitle fixtures and a generated `.kar`/`.mid`, mutated.
    @Test func mutatedOwnFixtures() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/songs/formats")
        var originals = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            (name: name, bytes: [UInt8](FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()))
        }
        var lyricEvents = MIDIFixture.tune()
        lyricEvents.style = .lyricMetaEvents
        originals += [("tune.kar", MIDIFixture.tune().bytes()), ("tune.mid", lyricEvents.bytes())]
        mutate(originals, seed: 0x5EED_0003, rounds: 2000)
    }

    private func mutate(_ originals: [(name: String, bytes: [UInt8])], seed: UInt64, rounds: Int) {
        var rng = SeededGenerator(seed: seed)
        let interesting: [UInt8] = Array(":*FRGEP-#[]<>{}\",.0123456789 \n\r\t".utf8) + [0x00, 0xFF, 0xFE, 0xEF, 0xBB, 0xBF, 0xC3]
        let started = Date()
        for i in 0..<rounds {
            let original = originals[i % originals.count]
            var bytes = Array(original.bytes.prefix(4000))
            let mutations = Int.random(in: 1...8, using: &rng)
            for _ in 0..<mutations where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes[at] = interesting.randomElement(using: &rng)!
                case 2: bytes.remove(at: at)
                case 3: bytes.insert(interesting.randomElement(using: &rng)!, at: at)
                default:
                    let end = min(bytes.count, at + Int.random(in: 1...40, using: &rng))
                    bytes.insert(contentsOf: Array(bytes[at..<end]), at: at)
                }
            }
            check(bytes, name: original.name)
        }
        #expect(Date().timeIntervalSince(started) < 60)
    }

    private func check(_ bytes: [UInt8], name: String) {
        let started = Date()
        do {
            let song = try SongFileReader.read(bytes: bytes, path: name)
            #expect(!song.parts.isEmpty && song.parts.allSatisfy { !$0.lines.isEmpty }, "\(name)")
            #expect(song.parts.allSatisfy { $0.lines.allSatisfy { $0.end >= $0.start && !$0.syllables.isEmpty } }, "\(name)")
        } catch {
            #expect(error.path == name)
            #expect(!error.message.isEmpty)
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 2, "\(name) (\(bytes.count) bytes) took \(elapsed) s")
    }
}
