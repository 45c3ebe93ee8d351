@testable import AudioEngine
import AudioFiles
import EventServer
import Foundation
import KaraokeRoom
import RoomProtocol
import ScoreStore
import SongFormats
import TestSupport
import Testing

/// Per-seat difficulty through the real room: both microphones (the two channels of
/// `speaker.monitor`) hear the same singer, a semitone sharp all song. The host puts seat 0 on
/// hard and seat 1 on easy with `singerDifficulty` (the room stays on medium): hard must refuse
/// the notes easy accepts, and the store must keep each run's own difficulty.
extension PulseAudioTests {
@Suite struct LiveSeatDifficultyTests {
    typealias Transport = LiveRoomSessionEndToEndTests.RecordingTransport

    @Test func twoSeatsOnTheSameSlightlyOffAudioAreJudgedOnTheirOwnDifficulty() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seat-difficulty-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let songDir = folder.appendingPathComponent("songs/live-test")
        try FileManager.default.createDirectory(at: songDir, withIntermediateDirectories: true)
        let txt = songDir.appendingPathComponent("live-test.txt").path
        try LiveRoomSessionEndToEndTests.songText.write(toFile: txt, atomically: true, encoding: .utf8)
        let song = try SongFileReader.read(path: txt)
        let rate = 48_000.0
        let sharp = LiveScoringEndToEndTests.singer(for: song, key: 1, seconds: 9, rate: rate)
        var interleaved = [Float](repeating: 0, count: sharp.count * 2)
        for i in sharp.indices { interleaved[2 * i] = sharp[i]; interleaved[2 * i + 1] = sharp[i] }
        try AudioFile.write(AudioBuffer(samples: interleaved, sampleRate: rate, channels: 2),
                            to: songDir.appendingPathComponent("backing.wav").path, format: .wavFloat)

        let store = try SQLiteScoreStore(path: folder.appendingPathComponent("karaoke.sqlite").path)
        let engine = try PlaybackEngine(configuration: .init(device: "speaker"))
        defer { engine.close() }
        let capture = try CaptureEngine(configuration: .init(source: "speaker.monitor", layout: .channelsAsSingers))
        defer { capture.close() }
        var roomOptions = Room.Options(pin: RoomPin("1234")!, audio: true)
        roomOptions.singerNames = ["Hard Seat", "Easy Seat"]
        let room = Room(player: engine, catalog: try DirectorySongCatalog(directory: folder.appendingPathComponent("songs").path),
                        options: roomOptions)
        defer { room.shutdown() }
        var liveOptions = LiveRoomSession.Options()
        liveOptions.defaultMicDelay = 0
        liveOptions.calibrationPath = nil
        let live = LiveRoomSession(microphones: LiveMicrophone.all(of: capture, source: "speaker.monitor"),
                                   clock: engine.clock, sink: room, store: store, options: liveOptions)
        defer { live.close() }
        let transport = Transport()
        room.start(transport: transport, liveSession: live)

        // The host's commands, as the WebSocket would deliver them.
        let handler = room.connectionHandler
        handler.clientConnected(ClientInfo(id: 7, peerAddress: "127.0.0.1"))
        handler.client(7, sent: #"{"type":"hello","role":"host","pin":"1234"}"#)
        handler.client(7, sent: #"{"type":"singerDifficulty","singer":0,"level":"hard"}"#)
        handler.client(7, sent: #"{"type":"singerDifficulty","singer":1,"level":"easy"}"#)
        let states = { transport.events.all.compactMap { if case .state(let s) = $0 { s } else { nil } } }
        #expect(waitUntil(timeout: 5) {
            states().last.map { $0.singers.map(\.difficulty) == [.hard, .easy] && $0.difficulty == .medium } ?? false
        }, "the seats' difficulties are not in the state: \(states().last.map { "\($0.singers)" } ?? "no state")")

        try room.load(songId: "live-test", autoplay: true)
        let finals = { transport.events.all.compactMap { event -> TotalPayload? in
            if case .total(let t) = event, t.final { t } else { nil }
        } }
        #expect(waitUntil(timeout: 25) { Set(finals().map(\.singer)) == [0, 1] }, "no final totals")
        let totals = Dictionary(finals().map { ($0.singer, $0) }, uniquingKeysWith: { first, _ in first })
        let hard = try #require(totals[0]), easy = try #require(totals[1])
        print("a semitone sharp: hard seat \(Int(hard.score)), easy seat \(Int(easy.score))")
        #expect(hard.difficulty == "hard" && easy.difficulty == "easy")
        #expect(easy.score > 8000, "easy accepts a semitone off: \(easy.score)")
        #expect(hard.score < 2000, "hard refuses a semitone off: \(hard.score)")

        var rows: [PerformanceRecord] = []
        _ = waitUntil(timeout: 60) {
            rows = ((try? store.history(singer: "Hard Seat")) ?? []) + ((try? store.history(singer: "Easy Seat")) ?? [])
            return rows.count == 2 && rows.allSatisfy { $0.finishedAt != nil }
        }
        #expect(Dictionary(rows.map { ($0.singer, $0.difficulty) }, uniquingKeysWith: { a, _ in a })
                == ["Hard Seat": "hard", "Easy Seat": "easy"], "stored: \(rows.map { ($0.singer, $0.difficulty, $0.total) })")
        #expect(Set(rows.map { Double($0.total) }) == Set([hard.score, easy.score]))
    }
}
}
