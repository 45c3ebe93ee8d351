import AudioEngine
import EventServer
import Foundation
@testable import KaraokeRoom
import Testing

/// `CalibrationDrift` on synthetic clock-sync offsets, and the whole path: a phone's offset
/// moving after its calibration marks its seat `needsCalibration` in the room's state; a seat's
/// own difficulty from `phoneMic` (a bad one refused).
@Suite("Phone seats: timing drift since calibration, own difficulty")
struct PhoneSeatCalibrationDriftTests {
    @Test func aMoveOfOver20MsThatHoldsForTwoSecondsNeedsCalibration() {
        var drift = CalibrationDrift()
        func needs(_ calibrated: Double?, _ offset: Double?, at now: Double) -> Bool {
            drift.update(calibratedOffset: calibrated, offset: offset, now: now)
        }
        // Not calibrated while seated, or no clock sync yet: nothing to compare.
        #expect(!needs(nil, 5.0, at: 0))
        #expect(!needs(5.0, nil, at: 0))
        // Within 20 ms: fine however long.
        for t in stride(from: 0.0, through: 10, by: 0.25) { #expect(!needs(5.0, 5.019, at: t)) }
        // 25 ms away, but back within the hold: a wobble, not a move.
        #expect(!needs(5.0, 5.025, at: 10))
        #expect(!needs(5.0, 5.025, at: 11.5))
        #expect(!needs(5.0, 5.010, at: 11.75))
        #expect(drift.awaySince == nil)
        // Away (either way) for 2 s: calibrate again.
        #expect(!needs(5.0, 4.970, at: 20))
        #expect(!needs(5.0, 4.968, at: 21.9))
        #expect(needs(5.0, 4.968, at: 22))
        // A new calibration at the new offset clears it.
        #expect(!needs(4.968, 4.968, at: 22.25))
    }

    /// A room whose phone seats are scored by a live session (as `serve` wires them).
    private final class LivePhoneRoom {
        let server: EventServer
        let room: Room
        let phones: PhoneSeats
        let live: LiveRoomSession
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-drift-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try "<!doctype html>".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            let options = Room.Options(pin: RoomPin("4321")!, audio: false, tickInterval: 0.02, stateInterval: 0.25)
            room = Room(player: ClockPlayer(), catalog: TestSong.catalog, options: options)
            server = EventServer(configuration: EventServerConfiguration(host: "127.0.0.1", port: 0, publicDirectory: root.path,
                                                                         idlePingSeconds: 600))
            let server = server
            phones = PhoneSeats(room: room, firstSinger: 0) { message, client in server.send(message, to: client) }
            var liveOptions = LiveRoomSession.Options()
            liveOptions.calibrationPath = nil
            live = LiveRoomSession(microphones: phones.slots.map { LiveMicrophone(phone: $0) }, clock: PlaybackClock(),
                                   sink: room, store: nil, options: liveOptions)
            phones.attach(session: live)
            room.start(transport: server, liveSession: live)
            try server.start(delegate: phones)
        }

        func stop() {
            server.stop()
            phones.close()
            live.close()
            room.shutdown()
            try? FileManager.default.removeItem(at: root)
        }

        /// The phone seat `singer` in the newest state the client got within `timeout` that satisfies `check`.
        func seat(_ client: WebSocketTestClient, singer: Int, timeout: Double = 6,
                  _ check: @escaping ([String: Any]) -> Bool) throws -> [String: Any]? {
            let state = try client.waitFor("state", timeout: timeout) { state in
                ((state["singers"] as? [[String: Any]]) ?? []).contains { $0["singer"] as? Int == singer && check($0) }
            }
            return (state?["singers"] as? [[String: Any]])?.first { $0["singer"] as? Int == singer }
        }
    }

    @Test func aPhoneWhoseOffsetMovedSinceItsCalibrationIsMarkedInTheState() throws {
        let room = try LivePhoneRoom()
        defer { room.stop() }
        let client = try WebSocketTestClient(port: room.server.port)
        _ = try client.waitFor("hello")
        try client.sendText(#"{"type":"phoneMic","name":"Ann"}"#)
        let reply = try #require(try client.waitFor("phoneMicSeat"))
        let slot = try #require(reply["slot"] as? Int)
        let phone = room.phones.slots[slot]
        try client.sendText(#"{"type":"phoneClockOffset","offset":100.0,"rtt":0.01}"#)
        #expect(waitUntil { phone.clockOffset == 100.0 })
        // Not calibrated while seated: never flagged, whatever the offset does.
        try client.sendText(#"{"type":"phoneClockOffset","offset":100.05,"rtt":0.01}"#)
        #expect(try room.seat(client, singer: slot) { $0["needsCalibration"] as? Bool == false } != nil)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(!phone.needsCalibration)
        // Calibrated now (as `PhoneCalibrator` succeeding marks it): 10 ms away is within.
        phone.markCalibrated()
        try client.sendText(#"{"type":"phoneClockOffset","offset":100.06,"rtt":0.01}"#)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(!phone.needsCalibration)
        // 30 ms away and staying there: the state says so within the hold (2 s) and a few watch rounds.
        try client.sendText(#"{"type":"phoneClockOffset","offset":100.08,"rtt":0.01}"#)
        let flagged = try room.seat(client, singer: slot) { $0["needsCalibration"] as? Bool == true }
        #expect(flagged?["source"] as? String == "phone")
        // Calibrating again at the new offset clears it.
        phone.markCalibrated()
        #expect(try room.seat(client, singer: slot) { $0["needsCalibration"] as? Bool == false } != nil)
    }

    @Test func aPhoneTakesItsSeatOnItsOwnDifficultyAndABadOneIsRefused() throws {
        let room = try LivePhoneRoom()
        defer { room.stop() }
        let client = try WebSocketTestClient(port: room.server.port)
        _ = try client.waitFor("hello")
        try client.sendText(#"{"type":"phoneMic","name":"Ann","difficulty":"impossible"}"#)
        let error = try #require(try client.waitFor("error"))
        #expect(error["code"] as? String == "badArguments")
        #expect((error["message"] as? String)?.contains("difficulty") == true)
        #expect(room.phones.slots.allSatisfy { !$0.isSeated }, "a refused phoneMic takes no seat")
        try client.sendText(#"{"type":"phoneMic","name":"Ann","difficulty":"hard"}"#)
        let reply = try #require(try client.waitFor("phoneMicSeat"))
        #expect(reply["difficulty"] as? String == "hard")
        let seat = try room.seat(client, singer: reply["singer"] as! Int) { $0["name"] as? String == "Ann" }
        #expect(seat?["difficulty"] as? String == "hard")
        // A second phone without one follows the room (no field).
        let other = try WebSocketTestClient(port: room.server.port)
        _ = try other.waitFor("hello")
        try other.sendText(#"{"type":"phoneMic","name":"Bob"}"#)
        let bob = try #require(try other.waitFor("phoneMicSeat"))
        #expect(bob["difficulty"] == nil)
        let bobSeat = try room.seat(other, singer: bob["singer"] as! Int) { $0["name"] as? String == "Bob" }
        #expect(bobSeat != nil && bobSeat?["difficulty"] == nil)
    }
}

private func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
