import Foundation
import SongFormats
import Synchronization
import Testing
import TestSupport

private let postgres = ProcessInfo.processInfo.environment["KARAOKE_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

/// Two rooms' `karaoke score --save` into one PostgreSQL at once, then `karaoke scores --store`
/// lists both with their rooms (issue 16's acceptance, from the command line).
@Suite(.serialized, .enabled(if: KaraokeCommand.isAvailable && postgres != nil,
                             "needs KARAOKE_BIN and KARAOKE_TEST_POSTGRES (scripts/test sets both)"))
struct SharedStoreCommandTests {
    let scratch = NSTemporaryDirectory() + "shared-store-\(UUID().uuidString)"

    @Test func twoRoomsSaveIntoOnePostgresAndScoresListsBoth() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let song = try SongFileReader.read(path: TestPaths.demoSong)
        let wav = try SynthesisedSinger().write(song, name: "shared-demo", in: scratch)
        let base = postgres ?? ""
        let url = base + (base.contains("?") ? "&" : "?") + "schema=cli_" + UUID().uuidString.prefix(8).lowercased()

        let runs = Mutex<[String: KaraokeCommand.Run]>([:])
        let rooms = [("Blue", "Ana"), ("Red", "Bo")]
        DispatchQueue.concurrentPerform(iterations: rooms.count) { index in
            let (room, singer) = rooms[index]
            let run = try? KaraokeCommand.run(["score", "songs/demo", wav, "--mic-delay", "0", "--save", "--singer", singer,
                                               "--store", url, "--room", room], in: TestPaths.packageRoot)
            runs.withLock { $0[room] = run }
        }
        for (room, _) in rooms {
            let run = try #require(runs.withLock { $0[room] })
            #expect(run.status == 0, "\(room): \(run.err)")
        }

        let board = try KaraokeCommand.run(["scores", "demo", "--store", url], in: TestPaths.packageRoot)
        #expect(board.status == 0, "\(board.err)")
        #expect(board.out.contains("Ana — Morning on the Hill [demo] @Blue"), "\(board.out)")
        #expect(board.out.contains("Bo — Morning on the Hill [demo] @Red"), "\(board.out)")

        let json = try KaraokeCommand.run(["scores", "--store", url, "--json"], in: TestPaths.packageRoot)
        let rows = (try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])?["leaderboard"] as? [[String: Any]]
        #expect(Set(rows?.compactMap { $0["room"] as? String } ?? []) == ["Blue", "Red"])
    }

    @Test func anUnreachableStoreIsAClearError() throws {
        let run = try KaraokeCommand.run(["scores", "--store", "postgres://nobody@localhost/none?host=/nonexistent-dir"],
                                         in: TestPaths.packageRoot)
        #expect(run.status != 0)
        #expect(run.err.contains("cannot reach PostgreSQL"), "\(run.err)")
        #expect(run.err.contains("postgres://nobody@/none?host=/nonexistent-dir"), "\(run.err)")
    }
}
