import EventServer
import Foundation
import KaraokeRoom
import Synchronization
import Testing

/// The host's vocal-reduction switch: kept while the room runs, reported in the state, and
/// applied to the player only for songs whose backing is a full mix (not an instrumental stem).
@Suite("Room: vocal reduction is a host setting applied to full mixes only")
struct VocalReductionCommandTests {
    final class SwitchRecordingPlayer: ClockBackedPlayer {
        let clock = ClockPlayer()
        let reduction = Mutex<Bool?>(nil)
        func prepare(backingTrack path: String?, duration: Double,
                     isCancelled: @escaping @Sendable () -> Bool) throws -> PreparedTrack {
            try clock.prepare(backingTrack: path, duration: duration, isCancelled: isCancelled)
        }
        func setVocalReduction(_ on: Bool) { reduction.withLock { $0 = on } }
    }

    static func catalog() -> FixedSongCatalog {
        var mix = TestSong.make()
        mix.metadata.title = "Full Mix"
        mix.metadata.audioFile = "Artist - Full Mix.mp3"
        var stem = TestSong.make()
        stem.metadata.title = "With Stems"
        stem.metadata.audioFile = "Artist - With Stems.mp3"
        stem.metadata.instrumentalFile = "Artist - With Stems [INSTR].mp3"
        return FixedSongCatalog([
            CatalogEntry(id: "mix", song: mix, error: nil, backingTrackPath: "/songs/mix/Artist - Full Mix.mp3", duration: 12),
            CatalogEntry(id: "stem", song: stem, error: nil, backingTrackPath: "/songs/stem/Artist - With Stems [INSTR].mp3", duration: 12),
            CatalogEntry(id: "backing", song: TestSong.make(), error: nil, backingTrackPath: "/songs/demo/backing.ogg", duration: 12),
        ])
    }

    @Test func theHostSwitchesItAndOnlyFullMixesAreReduced() throws {
        let player = SwitchRecordingPlayer()
        let room = try TestRoomServer(loadSong: false, roomPlayer: player, catalog: Self.catalog())
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        #expect((hello["state"] as? [String: Any])?["vocalReduction"] as? Bool == false)
        let guest = try room.client(role: "guest")
        try guest.sendText(#"{"type":"vocalReduction","on":true}"#)
        #expect(try #require(try guest.waitFor("error"))["code"] as? String == "forbidden")

        try host.sendText(#"{"type":"vocalReduction","on":true}"#)
        _ = try #require(try host.waitFor("state") { ($0["vocalReduction"] as? Bool) == true })
        for (song, reduced) in [("mix", true), ("stem", false), ("backing", false), ("mix", true)] {
            try host.sendText(#"{"type":"queueAdd","songId":"\#(song)","playNow":true}"#)
            _ = try #require(try host.waitFor("state") {
                ($0["songId"] as? String) == song && ($0["loading"] as? Bool) == false && ($0["vocalReductionActive"] as? Bool) == reduced
            }, "\(song)")
            #expect(player.reduction.withLock { $0 } == reduced, "\(song)")
        }
        try host.sendText(#"{"type":"vocalReduction","on":false}"#)
        _ = try #require(try host.waitFor("state") { ($0["vocalReduction"] as? Bool) == false && ($0["vocalReductionActive"] as? Bool) == false })
        #expect(player.reduction.withLock { $0 } == false)
    }
}
