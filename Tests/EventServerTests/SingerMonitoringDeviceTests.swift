import Foundation
import KaraokeRoom
import RoomProtocol
import Synchronization
import Testing

/// A switched-on microphone whose device goes away and comes back, through the recording
/// monitor (the PulseAudio side is in `AudioEngineTests/PulseMonitorTests`).
@Suite("Room: mic monitoring follows the devices")
struct SingerMonitoringDeviceTests {
    /// What `SingerMonitoring.observe` reported, in order.
    private final class Changes: Sendable {
        private let items = Mutex<[String]>([])
        var all: [String] { items.withLock { $0 } }
        func record(_ source: String, _ status: MonitorStatus) { items.withLock { $0.append("\(source) \(status)") } }
    }

    private static func observed(_ monitoring: SingerMonitoring) -> Changes {
        let changes = Changes()
        monitoring.observe { changes.record($0, $1) }
        return changes
    }

    @Test func aLostMicrophoneStaysOnAsWaitingAndIsHeardWhenBack() {
        let monitor = RecordingMonitor()
        let monitoring = SingerMonitoring(monitor: monitor, sources: ["mic2", "mic2", "usb"], sink: "speaker", latency: 0.02)
        let changes = Self.observed(monitoring)
        #expect(monitoring.setAll(on: true).isEmpty)

        monitor.deviceLost("mic2")
        #expect((0...2).map { monitoring.status(singer: $0) } == [.waiting, .waiting, .heard])
        let singers = monitoring.annotated((0...3).map { SingerPayload(singer: $0, name: "S\($0)", part: 0, micDelayMs: 0) })
        #expect(singers.map(\.monitor) == [true, true, true, nil])
        #expect(singers.map(\.monitorWaiting) == [true, true, false, nil])
        // Switching on again (a remote that had not seen the state yet) keeps waiting.
        #expect(monitoring.setAll(on: true).isEmpty)
        #expect(monitoring.status(singer: 0) == .waiting)

        monitor.deviceBack("mic2")
        #expect((0...2).map { monitoring.status(singer: $0) } == [.heard, .heard, .heard])
        #expect(changes.all == ["mic2 waiting", "mic2 heard"])
        // No disable, no extra load: the monitor restores loopbacks itself.
        #expect(!monitor.calls.contains { if case .disable = $0 { true } else { false } })
    }

    @Test func switchingOffWhileWaitingForgetsTheDevice() {
        let monitor = RecordingMonitor()
        let monitoring = SingerMonitoring(monitor: monitor, sources: ["mic"], sink: nil, latency: 0.02)
        let changes = Self.observed(monitoring)
        #expect(monitoring.setAll(on: true).isEmpty)
        monitor.deviceLost("mic")
        #expect(monitoring.status(singer: 0) == .waiting)

        monitoring.close()
        #expect(monitoring.status(singer: 0) == .off)
        #expect(monitor.calls.last == .disable(source: "mic"))
        monitor.deviceBack("mic")   // a switched-off source is not the monitor's to report
        #expect(monitoring.status(singer: 0) == .off)
        // Switched on again (the device is back): heard, not still waiting from before.
        #expect(monitoring.setAll(on: true).isEmpty)
        #expect(monitoring.status(singer: 0) == .heard)
        #expect(changes.all == ["mic waiting"])
    }

    /// The device may go the moment its loopback was loaded, before the switch is recorded as on.
    @Test func aLossReportedDuringTheSwitchStillShowsWaiting() {
        let monitor = LosingMonitor()
        let monitoring = SingerMonitoring(monitor: monitor, sources: ["mic"], sink: nil, latency: 0.02)
        #expect(monitoring.setAll(on: true).isEmpty)
        #expect(monitoring.status(singer: 0) == .waiting)
    }

    @Test func everyoneGetsAFreshStateWhenTheDeviceGoesAndComesBack() throws {
        let monitor = RecordingMonitor()
        let monitoring = SingerMonitoring(monitor: monitor, sources: ["mic"], sink: nil, latency: 0.02)
        let room = try TestRoomServer(monitoring: monitoring)
        defer { room.stop() }
        let watcher = try room.client()
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        let first = try #require((hello["state"] as? [String: Any])?["singers"] as? [[String: Any]])
        #expect(first[0]["monitorWaiting"] as? Bool == false && first[1]["monitorWaiting"] == nil)

        try host.sendText(#"{"type":"monitor","singer":0,"on":true}"#)
        #expect(try watcher.waitFor("state") { Self.monitor($0) == [true, false] } != nil)
        // The room is stopped, so no periodic state: only a broadcast on the change can arrive.
        monitor.deviceLost("mic")
        #expect(try watcher.waitFor("state", timeout: 2) { Self.monitor($0) == [true, true] } != nil)
        monitor.deviceBack("mic")
        #expect(try watcher.waitFor("state", timeout: 2) { Self.monitor($0) == [true, false] } != nil)

        // Switching off while waiting is an ordinary switch.
        monitor.deviceLost("mic")
        #expect(try host.waitFor("state", timeout: 2) { Self.monitor($0) == [true, true] } != nil)
        try host.sendText(#"{"type":"monitor","singer":0,"on":false}"#)
        #expect(try host.waitFor("state", timeout: 2) { Self.monitor($0) == [false, false] } != nil)
    }

    /// Singer 0's `[monitor, monitorWaiting]` in a `state`.
    private static func monitor(_ state: [String: Any]) -> [Bool?] {
        let singer = ((state["singers"] as? [[String: Any]]) ?? []).first
        return [singer?["monitor"] as? Bool, singer?["monitorWaiting"] as? Bool]
    }
}

/// Loads every source, and reports it lost before `enable` returns.
private final class LosingMonitor: RoomMonitor {
    private let observer = Mutex<(@Sendable (String, Bool) -> Void)?>(nil)
    func enable(source: String, sink: String?, latency: Double) throws { observer.withLock { $0 }?(source, false) }
    func disable(source: String) {}
    func observe(_ handler: @escaping @Sendable (String, Bool) -> Void) { observer.withLock { $0 = handler } }
}
