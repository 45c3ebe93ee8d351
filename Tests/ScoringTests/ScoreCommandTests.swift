import AudioFiles
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

        // The store named as `serve` names it: the folder holding karaoke.sqlite.
        let scored = try karaoke(["score", "songs/demo", wav, "--mic-delay", "0", "--json", "--save", "--singer", "Ana", "--scores", scratch + "/scores"])
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

        #expect(FileManager.default.fileExists(atPath: database))
        let board = try karaoke(["scores", "demo", "--scores", scratch + "/scores"])
        #expect(board.status == 0, "\(board.err)")
        #expect(board.out.contains("Ana"))
        #expect(board.out.contains("Morning on the Hill"))
        // The same store as a file, and by its old spelling (which says what it is now).
        let byFile = try karaoke(["scores", "demo", "--store", database])
        #expect(byFile.status == 0 && byFile.out.contains("Ana"), "\(byFile.err)")
        let oldSpelling = try karaoke(["scores", "demo", "--database", database])
        #expect(oldSpelling.status == 0 && oldSpelling.out.contains("Ana"), "\(oldSpelling.err)")
        #expect(oldSpelling.err.contains("--database FILE is now --store FILE"))
        let both = try karaoke(["scores", "demo", "--database", database, "--store", database])
        #expect(both.status != 0 && both.err.contains("give one of them"))

        // A damaged database: a clear error, the file untouched.
        let broken = scratch + "/broken.sqlite"
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: broken))
        let failed = try karaoke(["score", "songs/demo", wav, "--save", "--database", broken])
        #expect(failed.status != 0)
        #expect(failed.err.contains("broken.sqlite"))
        #expect(failed.err.contains("damaged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: broken)) == Data(repeating: 0x5A, count: 4096))
    }

    @Test func aSongFolderAnywhereIsReadEvenThroughALinkTheUserGave() throws {
        let outside = scratch + "/elsewhere/My Song"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for name in ["demo.txt", "backing.ogg"] {
            try FileManager.default.copyItem(atPath: TestPaths.packageRoot + "/songs/demo/" + name, toPath: outside + "/" + name)
        }
        let link = scratch + "/linked"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        for folder in [outside, link] {
            let shown = try karaoke(["show", folder])
            #expect(shown.status == 0 && shown.out.contains("Morning on the Hill"), "\(folder): \(shown.err)")
            let scored = try karaoke(["score", folder, TestPaths.packageRoot + "/songs/demo/backing.ogg", "--json"])
            #expect(scored.status == 0, "\(folder): \(scored.err)")
            let json = try JSONSerialization.jsonObject(with: Data(scored.out.utf8)) as? [String: Any]
            #expect(json?["songId"] as? String == "My Song", "\(folder)")
        }
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

    /// A recording of the room with nobody singing: the demo backing, 6 dB under a singer's level
    /// (the synthesised singer's 0.3 sines), 40 ms late. The song's own backing as reference
    /// (the default) suppresses it; `--no-backing` shows what the reference is worth.
    @Test func backingAloneScoresNextToNothingWithTheSongsBackingAsReference() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let backing = try AudioFile.read(path: TestPaths.packageRoot + "/songs/demo/backing.ogg")
        let mono = backing.mono()
        let rms = (mono.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(mono.count, 1))).squareRoot()
        let gain = Float(0.5 * 0.3 / 2.0.squareRoot() / max(rms, 1e-9))
        let late = Int(0.04 * backing.sampleRate)
        let bleed = [Float](repeating: 0, count: late) + mono.map { $0 * gain }
        let wav = scratch + "/backing-alone.wav"
        try AudioFile.write(AudioBuffer(samples: bleed, sampleRate: backing.sampleRate, channels: 1), to: wav, format: .wav16)

        let referenced = try karaoke(["score", "songs/demo", wav, "--json"])
        #expect(referenced.status == 0, "\(referenced.err)")
        let json = try JSONSerialization.jsonObject(with: Data(referenced.out.utf8)) as? [String: Any]
        let reference = json?["reference"] as? [String: Any]
        #expect(reference?["origin"] as? String == "song")
        #expect((reference?["path"] as? String)?.hasSuffix("songs/demo/backing.ogg") == true)
        let withReference = json?["total"] as? Int ?? .max

        let alone = try karaoke(["score", "songs/demo", wav, "--json", "--no-backing"])
        #expect(alone.status == 0, "\(alone.err)")
        let aloneJSON = try JSONSerialization.jsonObject(with: Data(alone.out.utf8)) as? [String: Any]
        #expect((aloneJSON?["reference"] as? [String: Any])?["origin"] as? String == "none")
        let withoutReference = aloneJSON?["total"] as? Int ?? 0
        print("backing alone: karaoke score \(withReference) with the song's backing as reference, \(withoutReference) with --no-backing")
        #expect(withReference <= 300)
        #expect(withoutReference > withReference + 300, "--no-backing scored \(withoutReference): the reference made no difference")

        // Naming the backing explicitly is the same reference; naming a missing file is a clear error.
        let named = try karaoke(["score", "songs/demo", wav, "--backing", "songs/demo/backing.ogg"])
        #expect(named.status == 0, "\(named.err)")
        #expect(named.out.contains("Bleed reference: songs/demo/backing.ogg (--backing)"))
        let missing = try karaoke(["score", "songs/demo", wav, "--backing", scratch + "/nope.ogg"])
        #expect(missing.status != 0)
        #expect(missing.err.contains("nope.ogg"))
        let both = try karaoke(["score", "songs/demo", wav, "--backing", "x.ogg", "--no-backing"])
        #expect(both.status != 0)
        #expect(both.err.contains("--no-backing"))
    }
}
