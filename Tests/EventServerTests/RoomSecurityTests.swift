import EventServer
import Foundation
import KaraokeRoom
import SongModel
import Testing

@Suite("Room security: PIN back-off across connections, host sessions, queue caps, song size")
struct RoomSecurityTests {
    @Test func wrongPinsAreCountedPerAddressAcrossConnectionsAndATokenStillLetsTheHostIn() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        let token = try #require(hello["hostToken"] as? String)
        #expect(token.count == 32 && (hello["hostTokenExpiresIn"] as? Double ?? 0) > 0)

        // Every guess on a new connection: the back-off follows the address, not the socket.
        var codes: [String] = []
        for guess in 0..<9 {
            let attacker = try room.client(role: "host", pin: String(format: "%04d", guess))
            codes.append(try attacker.waitFor("error")?["code"] as? String ?? "none")
            attacker.close()
        }
        #expect(codes.prefix(5).allSatisfy { $0 == "badPin" })
        #expect(codes.dropFirst(6).allSatisfy { $0 == "pinLocked" }, "\(codes)")

        // While the address is locked out even the right PIN waits; the session token does not.
        let locked = try room.client(role: "host", pin: TestRoomServer.pin)
        #expect(try locked.waitFor("error")?["code"] as? String == "pinLocked")
        let again = try WebSocketTestClient(port: room.port)
        _ = try again.waitFor("hello")
        try again.sendText(#"{"type":"hello","role":"host","token":"\#(token)"}"#)
        let back = try #require(try again.waitFor("hello") { ($0["role"] as? String) == "host" })
        #expect(back["hostToken"] == nil, "a token hello gets no new token")
        try again.sendText(#"{"type":"hello","role":"host","token":"00000000000000000000000000000000"}"#)
        #expect(try again.waitFor("error")?["code"] as? String == "badToken")
    }

    @Test func theQueueHasARoomCapAPerGuestCapAndNoDuplicates() throws {
        let entries = (0..<12).map { CatalogEntry(id: "s\($0)", song: TestSong.make(), error: nil, backingTrackPath: nil, duration: 12) }
        let room = try TestRoomServer(loadSong: false, catalog: FixedSongCatalog(entries)) {
            $0.maxQueue = 8
            $0.maxQueuedPerGuest = 3
        }
        defer { room.stop() }
        let guest = try room.client(role: "guest")
        _ = try guest.waitFor("hello") { ($0["role"] as? String) == "guest" }
        try guest.sendText(#"{"type":"queueAdd","songId":"s0"}"#)
        try guest.sendText(#"{"type":"queueAdd","songId":"s0","id":2}"#)
        // The same song by the same singer is folded into the first request (confirmed, not added).
        let folded = try #require(try guest.waitFor("queued") { ($0["id"] as? Int) == 2 })
        #expect(folded["folded"] as? Bool == true && folded["position"] as? Int == 1)
        for n in 1...3 { try guest.sendText(#"{"type":"queueAdd","songId":"s\#(n)","id":\#(n + 10)}"#) }
        #expect(try guest.waitFor("error")?["code"] as? String == "tooManyQueued")
        // Another browser on the same address (a NAT) shares the share.
        let neighbour = try room.client(role: "guest")
        try neighbour.sendText(#"{"type":"queueAdd","songId":"s9"}"#)
        #expect(try neighbour.waitFor("error")?["code"] as? String == "tooManyQueued")

        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        for n in 4...9 { try host.sendText(#"{"type":"queueAdd","songId":"s\#(n)"}"#) }
        #expect(try host.waitFor("error")?["code"] as? String == "queueFull")
        let full = try #require(try host.waitFor("queue") { ($0["queue"] as? [Any])?.count == 8 })
        #expect((full["queue"] as? [[String: Any]])?.map { $0["songId"] as? String } == ["s0", "s1", "s2", "s4", "s5", "s6", "s7", "s8"])
        try host.sendText(#"{"type":"queueClear"}"#)
        #expect(try host.waitFor("queue") { ($0["queue"] as? [Any])?.isEmpty == true } != nil)
        try guest.sendText(#"{"type":"queueClear"}"#)
        #expect(try guest.waitFor("error")?["code"] as? String == "forbidden")
    }

    @Test func aRoleChangeDoesNotResendTheSong() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let client = try WebSocketTestClient(port: room.port)
        let first = try #require(try client.waitFor("hello"))
        #expect(first["song"] is [String: Any])
        try client.sendText(#"{"type":"hello","role":"guest"}"#)
        let second = try #require(try client.waitFor("hello") { ($0["role"] as? String) == "guest" })
        #expect(second["song"] == nil && second["songUnchanged"] as? Bool == true)
    }

    @Test func aSongWithTooManyLinesIsListedWithTheProblemAndRefused() throws {
        var huge = TestSong.make()
        let line = huge.parts[0].lines[0]
        huge.parts[0].lines = Array(repeating: line, count: 2_500)
        let room = try TestRoomServer(loadSong: false, catalog: FixedSongCatalog([
            CatalogEntry(id: "huge", song: huge, error: nil, backingTrackPath: nil, duration: 12),
            CatalogEntry(id: "test", song: TestSong.make(), error: nil, backingTrackPath: nil, duration: 12),
        ]))
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        try host.sendText(#"{"type":"library","query":"","limit":10}"#)
        let page = try #require(try host.waitFor("library"))
        let listed = (page["songs"] as? [[String: Any]])?.first { $0["id"] as? String == "huge" }
        #expect((listed?["error"] as? String)?.contains("2500 lyric lines") == true)
        try host.sendText(#"{"type":"queueAdd","songId":"huge","playNow":true}"#)
        let error = try #require(try host.waitFor("error"))
        #expect(error["code"] as? String == "songTooLarge")
        #expect((error["message"] as? String)?.contains("at most 2000") == true)
    }
}
