import EventServer
import Foundation
import KaraokeRoom
import Testing

@Suite("Room: the host's TV text size reaches every display")
struct DisplayScaleCommandTests {
    @Test func theHostSetsItGuestsCannotAndOutOfRangeIsRefused() throws {
        let room = try TestRoomServer(loadSong: false, catalog: RoomQueueTurnsTests.catalog())
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        #expect((hello["state"] as? [String: Any])?["displayScale"] as? Double == 100)
        let guest = try room.client(role: "guest")
        try guest.sendText(#"{"type":"displayScale","percent":150}"#)
        #expect(try #require(try guest.waitFor("error"))["code"] as? String == "forbidden")
        try host.sendText(#"{"type":"displayScale","percent":400}"#)
        #expect(try #require(try host.waitFor("error"))["code"] as? String == "badArguments")
        try host.sendText(#"{"type":"displayScale","percent":150}"#)
        _ = try #require(try host.waitFor("state") { ($0["displayScale"] as? Double) == 150 })
        // A display that joins later starts with it (its hello carries the state).
        let display = try room.client(role: "display")
        try display.sendText(#"{"type":"hello","role":"display"}"#)
        let joined = try #require(try display.waitFor("hello"))
        #expect((joined["state"] as? [String: Any])?["displayScale"] as? Double == 150)
    }
}
