import EventServer
import Foundation
import KaraokeRoom
import Testing

@Suite("Room: the pause between songs, its countdown, and the host skipping it")
struct RoomIntermissionTests {
    /// Ends the song playing by seeking just before its end.
    static func runToEnd(_ host: WebSocketTestClient) throws {
        let state = try #require(try host.waitFor("state") { ($0["transport"] as? String) == "playing" })
        let duration = try #require(state["duration"] as? Double)
        try host.sendText(#"{"type":"seek","position":\#(duration - 0.2)}"#)
    }

    /// A host on `room` queues s1 then s2, plays, and runs s1 to its end.
    static func hostPlaysTheFirstOfTwoToItsEnd(_ room: TestRoomServer) throws -> WebSocketTestClient {
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"queueAdd","songId":"s1"}"#)
        try host.sendText(#"{"type":"queueAdd","songId":"s2"}"#)
        try host.sendText(#"{"type":"play"}"#)
        try runToEnd(host)
        return host
    }

    @Test func theNextSongWaitsThePauseWithACountdownThenStarts() throws {
        let room = try TestRoomServer(loadSong: false, catalog: RoomQueueTurnsTests.catalog()) { $0.pauseBetweenSongs = 1.5 }
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"queueAdd","songId":"s1","requestedBy":"Ann"}"#)
        try host.sendText(#"{"type":"queueAdd","songId":"s2","requestedBy":"Bob"}"#)
        try host.sendText(#"{"type":"play"}"#)
        try Self.runToEnd(host)
        let waiting = try #require(try host.waitFor("state", timeout: 5) { ($0["intermission"] as? [String: Any]) != nil })
        let intermission = try #require(waiting["intermission"] as? [String: Any])
        #expect(waiting["songId"] as? String == "s2" && waiting["transport"] as? String == "stopped")
        #expect(intermission["songId"] as? String == "s2" && intermission["seconds"] as? Double == 1.5)
        let endsIn = try #require(intermission["endsIn"] as? Double)
        #expect(endsIn > 0.5 && endsIn <= 1.5, "endsIn \(endsIn)")
        #expect(waiting["pauseBetweenSongs"] as? Double == 1.5)
        let began = Date()
        let playing = try #require(try host.waitFor("state", timeout: 5) { ($0["transport"] as? String) == "playing" })
        let waited = Date().timeIntervalSince(began)
        #expect(playing["songId"] as? String == "s2" && playing["intermission"] == nil)
        #expect(waited >= endsIn - 0.3 && waited < endsIn + 1.0, "started \(waited) s after a countdown of \(endsIn) s")
    }

    @Test func theHostSkipsTheWaitWithPlayAndCanChangeThePause() throws {
        let room = try TestRoomServer(loadSong: false, catalog: RoomQueueTurnsTests.catalog())
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        let guest = try room.client(role: "guest")
        try guest.sendText(#"{"type":"pauseBetweenSongs","seconds":5}"#)
        let refused = try #require(try guest.waitFor("error"))
        #expect(refused["code"] as? String == "forbidden")
        try host.sendText(#"{"type":"pauseBetweenSongs","seconds":60}"#)
        _ = try #require(try host.waitFor("state") { ($0["pauseBetweenSongs"] as? Double) == 60 })
        try host.sendText(#"{"type":"queueAdd","songId":"s1"}"#)
        try host.sendText(#"{"type":"queueAdd","songId":"s3"}"#)
        try host.sendText(#"{"type":"play"}"#)
        try Self.runToEnd(host)
        let waiting = try #require(try host.waitFor("state", timeout: 5) { ($0["intermission"] as? [String: Any]) != nil })
        #expect(((waiting["intermission"] as? [String: Any])?["endsIn"] as? Double ?? 0) > 55)
        try host.sendText(#"{"type":"play"}"#)
        let playing = try #require(try host.waitFor("state", timeout: 2) { ($0["transport"] as? String) == "playing" })
        #expect(playing["songId"] as? String == "s3" && playing["intermission"] == nil)
    }

    @Test func noPauseStartsTheNextSongAtOnce() throws {
        let room = try TestRoomServer(loadSong: false, catalog: RoomQueueTurnsTests.catalog()) { $0.pauseBetweenSongs = 0 }
        defer { room.stop() }
        let host = try Self.hostPlaysTheFirstOfTwoToItsEnd(room)
        let next = try #require(try host.waitFor("state", timeout: 5) { ($0["songId"] as? String) == "s2" })
        #expect(next["intermission"] == nil)
        _ = try #require(try host.waitFor("state", timeout: 2) { ($0["transport"] as? String) == "playing" && ($0["songId"] as? String) == "s2" })
    }

    @Test func queuedStartTimesCountThePauseAndWhatIsLeftOfIt() throws {
        let room = try TestRoomServer(loadSong: false, catalog: RoomQueueTurnsTests.catalog()) { $0.pauseBetweenSongs = 30 }
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        for song in ["s1", "s2", "s3"] { try host.sendText(#"{"type":"queueAdd","songId":"\#(song)"}"#) }
        try host.sendText(#"{"type":"play"}"#)
        try Self.runToEnd(host)
        // Waiting before s2: s3 starts after the rest of the pause, all of s2, the pause and the changeover.
        let waiting = try #require(try host.waitFor("state", timeout: 5) {
            ($0["intermission"] as? [String: Any]) != nil && (($0["queue"] as? [[String: Any]])?.count ?? 0) == 1 })
        let endsIn = try #require((waiting["intermission"] as? [String: Any])?["endsIn"] as? Double)
        let duration = try #require(waiting["duration"] as? Double)
        let next = try #require((waiting["queue"] as? [[String: Any]])?.first)
        #expect(next["songId"] as? String == "s3")
        let startsIn = try #require(next["startsIn"] as? Double)
        let expected = endsIn + duration + 30 + 5
        #expect(abs(startsIn - expected) <= 1.5, "s3 starts in \(startsIn) s, expected \(expected) s")
    }

    /// A calibration started in the pause between songs holds the next song: its countdown runs
    /// out but the song waits (the state says why, `play` is refused and keeps the wait), then
    /// starts once the calibration is over, whether it succeeded or failed.
    @Test(arguments: [true, false])
    func aCalibrationInThePauseHoldsTheNextSongUntilItIsOver(succeeds: Bool) throws {
        let live = FakeLiveSession(inputLatencies: [0.004], calibrationTime: 4)
        if !succeeds { live.setCalibrationOutcome(.failure(.init(description: "no calibration clicks arrived"))) }
        let room = try TestRoomServer(loadSong: false, liveSession: live, catalog: RoomQueueTurnsTests.catalog()) {
            $0.pauseBetweenSongs = 2
        }
        defer { room.stop() }
        let host = try Self.hostPlaysTheFirstOfTwoToItsEnd(room)
        _ = try #require(try host.waitFor("state", timeout: 5) { ($0["intermission"] as? [String: Any]) != nil })
        try host.sendText(#"{"type":"calibrate","singer":0,"id":1}"#)
        let began = Date()
        let held = try #require(try host.waitFor("state") { $0["calibratingSinger"] as? Int == 0 })
        let intermission = try #require(held["intermission"] as? [String: Any], "the wait goes on while calibrating")
        #expect((intermission["heldBy"] as? String)?.contains("singer 1's microphone is being calibrated") == true)
        // Past the 2 s countdown the song still waits; `play` is refused and does not end the wait.
        Thread.sleep(forTimeInterval: 2.5)
        try host.sendText(#"{"type":"play","id":2}"#)
        let refused = try #require(try host.waitFor("error") { $0["id"] as? Int == 2 })
        #expect(refused["code"] as? String == "calibrating")
        var playedDuringCalibration = false
        let over = try #require(try host.waitFor("state", timeout: 8) { state in
            if state["transport"] as? String == "playing" && state["calibratingSinger"] != nil { playedDuringCalibration = true }
            return state["calibratingSinger"] == nil
        })
        #expect(!playedDuringCalibration)
        #expect(Date().timeIntervalSince(began) >= 3.5, "the calibration ran its 4 s")
        #expect(over["transport"] as? String != "playing" || over["intermission"] == nil)
        let playing = try #require(try host.waitFor("state", timeout: 3) { ($0["transport"] as? String) == "playing" },
                                   "the held song starts once the calibration is over")
        #expect(playing["songId"] as? String == "s2" && playing["intermission"] == nil)
        #expect(live.calibrations == [0])
    }
}
