import AudioEngine
import AudioFiles
import EventServer
import Foundation
import KaraokeRoom
import RoomProtocol
import TestSupport
import Testing

/// The room on the real `PlaybackEngine`: the track is decoded on the room's loader thread and
/// swapped in; an unreadable backing track fails with an error naming the file (to the caller
/// of `load(songId:)` and as an `error` event), and the room goes on to play another song.
extension PulseAudioTests {
@Suite struct RoomLoadingPulseTests {
    static let songText = """
        #TITLE:Loading Test
        #ARTIST:Tests
        #MP3:backing.wav
        #BPM:120
        #GAP:500
        : 0 4 0 One
        : 4 4 4  two
        E

        """

    @Test func corruptTrackIsReportedAndTheRoomPlaysTheNextSong() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("room-loading-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for id in ["good", "broken"] {
            let dir = folder.appendingPathComponent("songs/\(id)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Self.songText.write(toFile: dir.appendingPathComponent("\(id).txt").path, atomically: true, encoding: .utf8)
        }
        let good = folder.appendingPathComponent("songs/good/backing.wav").path
        // 44.1 kHz, so the loader really resamples to the sink's 48 kHz.
        try AudioFile.write(AudioBuffer(samples: TestSignals.sine(440, seconds: 4, rate: 44_100), sampleRate: 44_100, channels: 1),
                            to: good, format: .wavFloat)
        let broken = folder.appendingPathComponent("songs/broken/backing.wav").path
        try Data("RIFF but not really a wave file at all".utf8).write(to: URL(fileURLWithPath: broken))

        let engine = try PlaybackEngine(configuration: .init(device: "speaker"))
        defer { engine.close() }
        let room = Room(player: engine, catalog: try DirectorySongCatalog(directory: folder.appendingPathComponent("songs").path),
                        options: Room.Options(pin: RoomPin("1234")!, audio: true))
        let transport = LiveRoomSessionEndToEndTests.RecordingTransport()
        room.start(transport: transport)
        defer { room.shutdown() }

        // A host and a guest watch: the host reads why (the path relative to the library), the
        // guest only that the song can't be played right now.
        let handler = room.connectionHandler
        let (host, guest) = (ClientID(1), ClientID(2))
        handler.clientConnected(ClientInfo(id: host, peerAddress: "127.0.0.1"))
        handler.clientConnected(ClientInfo(id: guest, peerAddress: "192.168.1.20"))
        handler.client(host, sent: #"{"type":"hello","role":"host","pin":"1234"}"#)
        handler.client(guest, sent: #"{"type":"hello","role":"guest"}"#)
        #expect(waitUntil(timeout: 10) {
            transport.sent.all.contains { entry in
                guard entry.client == host, case .hello(let hello) = entry.event else { return false }
                return hello.role == .host
            }
        })

        #expect { try room.load(songId: "broken") } throws: { "\($0)".contains(broken) }
        #expect(waitUntil(timeout: 5) { !transport.errors(to: host).isEmpty && !transport.errors(to: guest).isEmpty })
        let forHost = transport.errors(to: host), forGuest = transport.errors(to: guest)
        #expect(forHost.map(\.code) == ["loadFailed"] && forGuest.map(\.code) == ["loadFailed"])
        #expect(forHost.first?.message.contains("broken/backing.wav") == true, "\(forHost)")
        #expect(forHost.first?.message.contains(folder.path) == false, "\(forHost)")
        #expect(forGuest.first?.message.contains("can't be played right now") == true, "\(forGuest)")
        #expect(forGuest.first?.message.contains("backing.wav") == false, "\(forGuest)")

        try room.load(songId: "good", autoplay: true)
        #expect(engine.isPlaying)
        #expect(abs(engine.duration - 4) < 0.01)
        #expect(waitUntil(timeout: 5) { engine.position > 0.3 }, "position stuck at \(engine.position)")
        let states = transport.events.all.compactMap { event -> StatePayload? in
            if case .state(let s) = event { s } else { nil }
        }
        #expect(states.contains { $0.loading && $0.songId == "good" && $0.playWhenLoaded })
        #expect(states.last.map { !$0.loading && $0.transport == .playing && $0.songId == "good" } == true)
    }
}
}
