import EventServer
import Foundation
import KaraokeRoom
import Testing

/// The `monitor` command and `state.singers[].monitor`, through a recording `RoomMonitor`.
@Suite("Room: mic monitoring")
struct RoomMonitoringTests {
    private static func monitors(_ singers: [String: Any]) -> [Bool?] {
        ((singers["singers"] as? [[String: Any]]) ?? []).map { $0["monitor"] as? Bool }
    }

    @Test func eitherSingerOfAStereoSourceSwitchesItForBoth() throws {
        let monitor = RecordingMonitor()
        let monitoring = SingerMonitoring(monitor: monitor, sources: ["mic2", "mic2"], sink: "speaker", latency: 0.02)
        let room = try TestRoomServer(monitoring: monitoring)
        defer { room.stop() }
        let watcher = try room.client()
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        #expect(Self.monitors(try #require(hello["state"] as? [String: Any])) == [false, false])

        try host.sendText(#"{"type":"monitor","singer":1,"on":true}"#)
        #expect(try host.waitFor("state") { Self.monitors($0) == [true, true] } != nil)
        #expect(try watcher.waitFor("state") { Self.monitors($0) == [true, true] } != nil)
        #expect(monitor.calls == [.enable(source: "mic2", sink: "speaker", latency: 0.02)])

        try host.sendText(#"{"type":"monitor","singer":0,"on":false}"#)
        #expect(try host.waitFor("state") { Self.monitors($0) == [false, false] } != nil)
        #expect(monitor.calls.last == .disable(source: "mic2"))
        #expect(monitoring.status(singer: 0) == .off && monitoring.status(singer: 2) == nil)
    }

    @Test func singerWithoutAMicrophoneIsRefusedAndTheConnectionStaysOpen() throws {
        let monitor = RecordingMonitor()
        let room = try TestRoomServer(monitoring: SingerMonitoring(monitor: monitor, sources: ["mic"], sink: nil, latency: 0.03))
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        // Singer 2 has a seat but no microphone: no `monitor` field, so the remote shows no switch.
        let singers = try #require((hello["state"] as? [String: Any])?["singers"] as? [[String: Any]])
        #expect(singers.count == 2 && singers[0]["monitor"] as? Bool == false && singers[1]["monitor"] == nil)

        try host.sendText(#"{"type":"monitor","singer":1,"on":true,"id":4}"#)
        let refused = try #require(try host.waitFor("error"))
        #expect(refused["code"] as? String == "badArguments" && refused["id"] as? Int == 4 && refused["command"] as? String == "monitor")
        try host.sendText(#"{"type":"monitor","singer":12,"on":true}"#)
        #expect(try host.waitFor("error")?["code"] as? String == "badArguments")
        #expect(monitor.calls.isEmpty)

        try host.sendText(#"{"type":"monitor","singer":0,"on":true}"#)
        #expect(try host.waitFor("state") { Self.monitors($0).first == true } != nil)
        #expect(monitor.calls == [.enable(source: "mic", sink: nil, latency: 0.03)])
    }

    @Test func soundServerFailureIsReportedToTheRequesterOnly() throws {
        let monitor = RecordingMonitor(refusing: ["broken"])
        let room = try TestRoomServer(monitoring: SingerMonitoring(monitor: monitor, sources: ["broken", "mic"], sink: nil, latency: 0.02))
        defer { room.stop() }
        let watcher = try room.client()
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        try host.sendText(#"{"type":"monitor","singer":0,"on":true,"id":5}"#)
        let error = try #require(try host.waitFor("error"))
        #expect(error["code"] as? String == "failed" && error["id"] as? Int == 5 && error["command"] as? String == "monitor")
        #expect((error["message"] as? String)?.contains("module-loopback refused broken") == true)
        #expect(try watcher.waitFor("error", timeout: 0.5) == nil)
        let late = try WebSocketTestClient(port: room.port)
        let hello = try #require(try late.waitFor("hello"))
        #expect(Self.monitors(try #require(hello["state"] as? [String: Any])) == [false, false])
        // The room carries on: the other microphone still switches.
        try host.sendText(#"{"type":"monitor","singer":1,"on":true}"#)
        #expect(try host.waitFor("state") { Self.monitors($0) == [false, true] } != nil)
    }

    @Test func guestsMayNotSwitchAndARoomWithoutMicrophonesSaysUnavailable() throws {
        let monitor = RecordingMonitor()
        let room = try TestRoomServer(monitoring: SingerMonitoring(monitor: monitor, sources: ["mic"], sink: nil, latency: 0.02))
        defer { room.stop() }
        let guest = try room.client(role: "guest")
        try guest.sendText(#"{"type":"monitor","singer":0,"on":true}"#)
        #expect(try guest.waitFor("error")?["code"] as? String == "forbidden")
        #expect(monitor.calls.isEmpty)

        let silent = try TestRoomServer()
        defer { silent.stop() }
        let host = try silent.client(role: "host", pin: TestRoomServer.pin)
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        #expect(Self.monitors(try #require(hello["state"] as? [String: Any])) == [nil, nil])
        try host.sendText(#"{"type":"monitor","singer":0,"on":true}"#)
        #expect(try host.waitFor("error")?["code"] as? String == "unavailable")
    }

    @Test func switchingEverySourceOnceAndClosing() {
        let monitor = RecordingMonitor(refusing: ["usb"])
        let monitoring = SingerMonitoring(monitor: monitor, sources: ["mic2", "mic2", "usb", "mic"], sink: "speaker", latency: 0.02)
        let failures = monitoring.setAll(on: true)
        #expect(failures == ["usb: module-loopback refused usb"])
        #expect(monitor.calls == ["mic2", "usb", "mic"].map { .enable(source: $0, sink: "speaker", latency: 0.02) })
        #expect((0...3).map { monitoring.status(singer: $0) } == [.heard, .heard, .off, .heard])
        monitoring.close()
        #expect(monitor.calls.suffix(3) == ["mic2", "usb", "mic"].map { .disable(source: $0) })
        #expect((0...3).map { monitoring.status(singer: $0) } == [.off, .off, .off, .off])
    }
}
