import Foundation
import SongFormats
import Testing
import TestSupport

/// `karaoke score` and `karaoke scores` as a user runs them (needs the built binary in `KARAOKE_BIN`).
@Suite(.serialized, .enabled(if: KaraokeCommand.isAvailable))
struct ScoreCommandTests {
    let scratch = NSTemporaryDirectory() + "score-command-\(UUID().uuidString)"

    func karaoke(_ arguments: [String]) throws -> KaraokeCommand.Run {
        try KaraokeCommand.run(arguments, in: TestPaths.packageRoot)
    }

    @Test func scoreSaveAndLeaderboard() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let song = try SongFileReader.read(path: TestPaths.demoSong)
        let wav = try SynthesisedSinger().write(song, name: "cli-demo", in: scratch)
        let database = scratch + "/scores/karaoke.sqlite"

        let scored = try karaoke(["score", "songs/demo", wav, "--mic-delay", "0", "--json", "--save", "--singer", "Ana", "--database", database])
        #expect(scored.status == 0, "\(scored.err)")
        let json = try JSONSerialization.jsonObject(with: Data(scored.out.utf8)) as? [String: Any]
        #expect((json?["total"] as? Int ?? 0) >= 9500)
        #expect(json?["songId"] as? String == "demo")
        #expect(json?["basis"] as? String == "notes")
        #expect((json?["lines"] as? [Any])?.count == song.parts[0].lines.count)

        let text = try karaoke(["score", "songs/demo", wav, "--mic-delay", "0", "--key", "-3"])
        #expect(text.status == 0)
        #expect(text.out.contains("key -3"))
        #expect(text.out.contains("Total:"))
        #expect(text.out.contains("Bad"))

        let board = try karaoke(["scores", "demo", "--database", database])
        #expect(board.status == 0, "\(board.err)")
        #expect(board.out.contains("Ana"))
        #expect(board.out.contains("Morning on the Hill"))

        // A damaged database: a clear error, the file untouched.
        let broken = scratch + "/broken.sqlite"
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: broken))
        let failed = try karaoke(["score", "songs/demo", wav, "--save", "--database", broken])
        #expect(failed.status != 0)
        #expect(failed.err.contains("broken.sqlite"))
        #expect(failed.err.contains("damaged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: broken)) == Data(repeating: 0x5A, count: 4096))
    }

    @Test func badArgumentsGiveClearErrors() throws {
        let missing = try karaoke(["score", "songs/no-such-song", "nothing.wav"])
        #expect(missing.status != 0)
        #expect(missing.err.contains("no-such-song"))
        let badKey = try karaoke(["score", "songs/demo", "nothing.wav", "--key", "up"])
        #expect(badKey.status != 0)
        #expect(badKey.err.contains("--key"))
        let noRecording = try karaoke(["score", "songs/demo", scratch + "/absent.wav"])
        #expect(noRecording.status != 0)
        #expect(noRecording.err.contains("absent.wav"))
    }
}
