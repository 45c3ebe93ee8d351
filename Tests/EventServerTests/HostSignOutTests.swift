import EventServer
import Foundation
import Testing

/// A host signs out every other host device: their open pages become guests at once, told why,
/// and their saved tokens stop working; the host who asked keeps control and its own token.
@Suite("Host sign-out of the other host devices")
struct HostSignOutTests {
    @Test func theOtherHostsBecomeGuestsAndTheirTokensStopWorking() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let keeper = try room.client(role: "host", pin: TestRoomServer.pin)
        let keeperToken = try #require(try keeper.waitFor("hello") { ($0["role"] as? String) == "host" }?["hostToken"] as? String)
        let lost = try room.client(role: "host", pin: TestRoomServer.pin)
        let lostToken = try #require(try lost.waitFor("hello") { ($0["role"] as? String) == "host" }?["hostToken"] as? String)

        try keeper.sendText(#"{"type":"signOutOtherHosts"}"#)
        let told = try #require(try lost.waitFor("error") { ($0["code"] as? String) == "signedOut" })
        #expect((told["message"] as? String)?.contains("enter the room PIN") == true)
        #expect(try lost.waitFor("hello") { ($0["role"] as? String) == "guest" } != nil)
        #expect(try keeper.waitFor("hostsSignedOut")?["count"] as? Int == 1)
        // The signed-out page can no longer send host commands.
        try lost.sendText(#"{"type":"pause","id":5}"#)
        #expect(try lost.waitFor("error") { ($0["id"] as? Int) == 5 }?["code"] as? String == "forbidden")

        // Its saved token is refused on a new connection; the keeper's still works.
        let again = try WebSocketTestClient(port: room.port)
        _ = try again.waitFor("hello")
        try again.sendText(#"{"type":"hello","role":"host","token":"\#(lostToken)"}"#)
        #expect(try again.waitFor("error")?["code"] as? String == "badToken")
        try again.sendText(#"{"type":"hello","role":"host","token":"\#(keeperToken)"}"#)
        #expect(try again.waitFor("hello") { ($0["role"] as? String) == "host" } != nil)
    }

    @Test func guestsCannotSignHostsOut() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        let guest = try room.client(role: "guest")
        _ = try guest.waitFor("hello") { ($0["role"] as? String) == "guest" }
        try guest.sendText(#"{"type":"signOutOtherHosts","id":3}"#)
        #expect(try guest.waitFor("error") { ($0["id"] as? Int) == 3 }?["code"] as? String == "forbidden")
        try host.sendText(#"{"type":"pause","id":4}"#)
        #expect(try host.waitFor("error") { ($0["id"] as? Int) == 4 } == nil, "the host is still host")
    }
}
