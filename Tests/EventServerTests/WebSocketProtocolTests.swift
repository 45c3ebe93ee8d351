import EventServer
import Foundation
import Testing

@Suite("WebSocket protocol: hello, roles, PIN, origin, bad input")
struct WebSocketProtocolTests {
    @Test func newClientGetsFullStateAtOnceEvenMidSong() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        #expect(try host.waitFor("hello") { ($0["role"] as? String) == "host" } != nil)
        try host.sendText(#"{"type":"seek","position":4.2}"#)
        try host.sendText(#"{"type":"play"}"#)
        #expect(try host.waitFor("state") { ($0["transport"] as? String) == "playing" } != nil)

        let late = try WebSocketTestClient(port: room.port)
        let hello = try #require(try late.waitFor("hello"))
        #expect(hello["v"] as? Int == 1)
        #expect(hello["role"] as? String == "display")
        let song = try #require(hello["song"] as? [String: Any])
        #expect(song["title"] as? String == "Test Tune")
        let parts = try #require(song["parts"] as? [[String: Any]])
        #expect((parts.first?["lines"] as? [Any])?.count == 4)
        let state = try #require(hello["state"] as? [String: Any])
        #expect(state["transport"] as? String == "playing")
        #expect((state["position"] as? Double ?? 0) >= 4.2)
        // Line 1 spans 3.5…5.5 s: the late client is told where the song is.
        let line = try #require(try late.waitFor("line"))
        #expect(line["line"] as? Int == 1 || line["line"] as? Int == 2)
    }

    @Test func displayCannotControlPlayback() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let display = try room.client()
        try display.sendText(#"{"type":"play","id":7}"#)
        let error = try #require(try display.waitFor("error"))
        #expect(error["code"] as? String == "forbidden")
        #expect(error["id"] as? Int == 7)
        #expect(room.player.isPlaying == false)
    }

    @Test func guestMayQueueButNotSeek() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let guest = try room.client(role: "guest")
        #expect(try guest.waitFor("hello") { ($0["role"] as? String) == "guest" } != nil)
        try guest.sendText(#"{"type":"queueAdd","songId":"second"}"#)
        let queue = try #require(try guest.waitFor("queue"))
        #expect((queue["queue"] as? [[String: Any]])?.first?["songId"] as? String == "second")
        try guest.sendText(#"{"type":"seek","position":3}"#)
        #expect(try guest.waitFor("error")?["code"] as? String == "forbidden")
    }

    @Test func hostRoleNeedsTheRoomPin() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let client = try room.client(role: "host", pin: "0000")
        #expect(try client.waitFor("error")?["code"] as? String == "badPin")
        try client.sendText(#"{"type":"play"}"#)
        #expect(try client.waitFor("error")?["code"] as? String == "forbidden")
        try client.sendText(#"{"type":"hello","role":"host","pin":"4321"}"#)
        #expect(try client.waitFor("hello") { ($0["role"] as? String) == "host" } != nil)
        try client.sendText(#"{"type":"key","semitones":-3}"#)
        #expect(try client.waitFor("state") { ($0["key"] as? Int) == -3 } != nil)
    }

    @Test func foreignOriginIsRejectedOwnOriginAccepted() throws {
        let room = try TestRoomServer(allowedOrigins: ["http://tv.example:8080"])
        defer { room.stop() }
        #expect(throws: WebSocketTestClient.HandshakeRejected.self) {
            _ = try WebSocketTestClient(port: room.port, origin: "http://evil.example")
        }
        _ = try WebSocketTestClient(port: room.port, origin: "http://127.0.0.1:\(room.port)")
        _ = try WebSocketTestClient(port: room.port, origin: "http://tv.example:8080")
        #expect(room.server.statistics.rejectedOrigins == 1)
    }

    @Test func malformedJSONAndUnknownCommandsGetErrorsOnlyForThatClient() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let bad = try room.client(role: "host", pin: TestRoomServer.pin)
        let watcher = try room.client()
        try bad.sendText("{not json")
        #expect(try bad.waitFor("error")?["code"] as? String == "malformedJSON")
        try bad.sendText(#"{"type":"dance"}"#)
        #expect(try bad.waitFor("error")?["code"] as? String == "unknownCommand")
        try bad.sendText(#"{"type":"tempo","ratio":9}"#)
        #expect(try bad.waitFor("error")?["code"] as? String == "badArguments")
        // Still connected and in control; the other client sees the result.
        try bad.sendText(#"{"type":"tempo","ratio":0.8}"#)
        #expect(try watcher.waitFor("state") { ($0["tempo"] as? Double) == 0.8 } != nil)
    }

    @Test func oversizeFrameClosesOnlyThatClient() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let big = try room.client()
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let watcher = try room.client()
        let payload = "{\"type\":\"hello\",\"role\":\"display\",\"name\":\"" + String(repeating: "x", count: 70_000) + "\"}"
        try? big.sendText(payload)
        #expect(big.waitForClose(timeout: 5))
        try host.sendText(#"{"type":"key","semitones":2}"#)
        #expect(try watcher.waitFor("state") { ($0["key"] as? Int) == 2 } != nil)
        #expect(room.server.statistics.oversizeCloses == 1)
    }

    @Test func floodsAreRateLimitedThenDisconnected() throws {
        let room = try TestRoomServer(rateLimit: .init(perSecond: 5, burst: 5, disconnectAfter: 30))
        defer { room.stop() }
        let flooder = try room.client()
        let watcher = try room.client()
        for _ in 0..<10 { try flooder.sendText(#"{"type":"library"}"#) }
        #expect(try flooder.waitFor("error")?["code"] as? String == "rateLimited")
        for _ in 0..<40 { try? flooder.sendText(#"{"type":"library"}"#) }
        #expect(flooder.waitForClose(timeout: 5))
        try watcher.sendText(#"{"type":"library"}"#)
        #expect(try watcher.waitFor("library") != nil)
    }
}
