import Foundation
import Testing
import TestSupport

/// `karaoke show` prints what lenient reading assumed, and `--strict` refuses it.
@Suite(.enabled(if: KaraokeCommand.isAvailable))
struct ShowCommandTests {
    @Test func warningsLenientlyAndErrorsStrictly() throws {
        let folder = NSTemporaryDirectory() + "show-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/song.txt"
        try "#TITLE:T\n#ARTIST:A\n#MP3:a.ogg\n#BPM:100\n#YEAR:This\n: 0 2 0 Hel\n: 2 2 0 lo\nE\n".write(toFile: file, atomically: true, encoding: .utf8)

        let lenient = try KaraokeCommand.run(["show", file, "--json"])
        #expect(lenient.status == 0, "\(lenient.err)")
        #expect(lenient.err.contains("\(file):5: warning: #YEAR must be a whole number, found 'This'; the tag is ignored"))
        #expect((try? JSONSerialization.jsonObject(with: Data(lenient.out.utf8))) != nil, "stdout stays one JSON document")

        let strict = try KaraokeCommand.run(["show", file, "--strict"])
        #expect(strict.status != 0)
        #expect(strict.err.contains("\(file):5: #YEAR must be a whole number, found 'This'"))
        #expect(!strict.err.contains("warning"))

        // A song folder: --strict reads the folder's lyric file strictly too.
        let byFolder = try KaraokeCommand.run(["show", folder, "--strict"])
        #expect(byFolder.status != 0)
        #expect(byFolder.err.contains(":5: #YEAR"))
    }
}
