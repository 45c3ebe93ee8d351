import EventServer
import Foundation
import KaraokeRoom
import Testing

@Suite("Room queue: confirmations, singer of the song, key memory, practice flag")
struct RoomQueueTurnsTests {
    static func catalog() -> FixedSongCatalog {
        FixedSongCatalog((1...3).map { n in
            var song = TestSong.make()
            song.metadata.title = "Song \(n)"
            return CatalogEntry(id: "s\(n)", song: song, error: nil, backingTrackPath: nil, duration: 12)
        })
    }

    @Test func aSingersKeyForASongComesBackWhenTheySingItAgain() throws {
        let room = try TestRoomServer(loadSong: false, catalog: Self.catalog())
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"queueAdd","songId":"s1","requestedBy":"Ann","id":7}"#)
        let queued = try #require(try host.waitFor("queued"))
        #expect(queued["id"] as? Int == 7 && queued["position"] as? Int == 1 && queued["folded"] as? Bool == false)
        #expect((queued["item"] as? [String: Any])?["startsIn"] as? Double == 0)
        try host.sendText(#"{"type":"next"}"#)
        _ = try #require(try host.waitFor("state") { ($0["singerName"] as? String) == "Ann" && ($0["songId"] as? String) == "s1" })
        try host.sendText(#"{"type":"key","semitones":3}"#)
        try host.sendText(#"{"type":"tempo","ratio":0.8}"#)
        _ = try #require(try host.waitFor("state") { ($0["tempo"] as? Double) == 0.8 })
        // Someone else's song: the room's key stays until changed; then Ann sings s1 again.
        try host.sendText(#"{"type":"queueAdd","songId":"s2","requestedBy":"Bob"}"#)
        try host.sendText(#"{"type":"next"}"#)
        _ = try #require(try host.waitFor("state") { ($0["songId"] as? String) == "s2" })
        try host.sendText(#"{"type":"key","semitones":0}"#)
        try host.sendText(#"{"type":"tempo","ratio":1}"#)
        _ = try #require(try host.waitFor("state") { ($0["tempo"] as? Double) == 1 && ($0["key"] as? Int) == 0 })
        try host.sendText(#"{"type":"queueAdd","songId":"s1","requestedBy":"ann "}"#)
        try host.sendText(#"{"type":"next"}"#)
        let again = try #require(try host.waitFor("state") { ($0["songId"] as? String) == "s1" })
        #expect(again["key"] as? Int == 3 && again["tempo"] as? Double == 0.8)
    }

    @Test func aSeekAfterTheFirstLineMakesAPracticeRunUntilStop() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"seek","position":0}"#)
        #expect(try host.waitFor("state")?["practice"] as? Bool == false, "from the top is a full run")
        try host.sendText(#"{"type":"seek","position":4}"#)
        #expect(try host.waitFor("state")?["practice"] as? Bool == true)
        try host.sendText(#"{"type":"stop"}"#)
        #expect(try host.waitFor("state")?["practice"] as? Bool == false)
    }
}
