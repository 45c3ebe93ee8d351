import EventServer
import Foundation
import KaraokeRoom
import Testing

/// `state.outputLatencyMs` and each singer's `inputLatencyMs`, `effectiveMicDelayMs` and
/// `micDelaySource`, and the `calibrate` command's outcome, through a player and a live session
/// whose readings the tests set.
@Suite("Room: measured latencies and mic delays")
struct RoomLatencyTests {
    private static func singers(_ state: [String: Any]) -> [[String: Any]] {
        (state["singers"] as? [[String: Any]]) ?? []
    }

    private static func hostHello(_ host: WebSocketTestClient) throws -> [String: Any] {
        let hello = try #require(try host.waitFor("hello") { ($0["role"] as? String) == "host" })
        return try #require(hello["state"] as? [String: Any])
    }

    @Test func stateCarriesTheMeasuredLatenciesAndWhereEachMicDelayComesFrom() throws {
        let live = FakeLiveSession(inputLatencies: [0.00412])
        let room = try TestRoomServer(liveSession: live, roomPlayer: MeasuredPlayer(outputLatency: 0.03125))
        defer { room.stop() }
        let state = try Self.hostHello(try room.client(role: "host", pin: TestRoomServer.pin))
        #expect(state["outputLatencyMs"] as? Double == 31.3)
        let singers = Self.singers(state)
        try #require(singers.count == 2)
        #expect(singers[0]["inputLatencyMs"] as? Double == 4.1)
        #expect(singers[0]["effectiveMicDelayMs"] as? Double == 140)
        #expect(singers[0]["micDelaySource"] as? String == "default")
        #expect(singers[0]["micDelayMs"] as? Double == 0, "the room setting is unchanged: still unset")
        // Singer 2 has a seat but no microphone: nothing measured, nothing resolved.
        for field in ["inputLatencyMs", "effectiveMicDelayMs", "micDelaySource"] { #expect(singers[1][field] == nil, "\(field)") }
    }

    @Test func roomSettingOverridesAndClearingItFallsBack() throws {
        let live = FakeLiveSession(inputLatencies: [0.004, 0.004])
        let room = try TestRoomServer(liveSession: live, roomPlayer: MeasuredPlayer(outputLatency: 0.03))
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try Self.hostHello(host)
        try host.sendText(#"{"type":"micDelay","singer":1,"ms":210}"#)
        let set = try #require(try host.waitFor("state") { Self.singers($0).last?["micDelaySource"] as? String == "room" })
        #expect(Self.singers(set).last?["effectiveMicDelayMs"] as? Double == 210)
        #expect(Self.singers(set).first?["micDelaySource"] as? String == "default", "only singer 2 was set")
        try host.sendText(#"{"type":"micDelay","singer":1,"ms":0}"#)
        let cleared = try #require(try host.waitFor("state") { Self.singers($0).last?["micDelaySource"] as? String == "default" })
        #expect(Self.singers(cleared).last?["effectiveMicDelayMs"] as? Double == 140)
    }

    @Test func calibrationIsShownToEveryoneAndItsFailureToTheClientThatAsked() throws {
        let live = FakeLiveSession(inputLatencies: [0.004])
        let room = try TestRoomServer(liveSession: live, roomPlayer: MeasuredPlayer(outputLatency: 0.03))
        defer { room.stop() }
        let watcher = try room.client()
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try Self.hostHello(host)

        live.setCalibrationOutcome(.failure(.init(description: "no calibration clicks arrived at input 'mic'")))
        try host.sendText(#"{"type":"calibrate","singer":0,"id":11}"#)
        let error = try #require(try host.waitFor("error"))
        #expect(error["code"] as? String == "failed" && error["id"] as? Int == 11 && error["command"] as? String == "calibrate")
        #expect((error["message"] as? String)?.contains("no calibration clicks arrived at input 'mic'") == true)
        #expect(try watcher.waitFor("error", timeout: 0.3) == nil, "only the client that asked hears of the failure")

        live.setCalibrationOutcome(.success(0.0265))
        try host.sendText(#"{"type":"calibrate","singer":0,"id":12}"#)
        for client in [host, watcher] {
            let state = try #require(try client.waitFor("state") { Self.singers($0).first?["micDelaySource"] as? String == "calibrated" })
            #expect(Self.singers(state).first?["effectiveMicDelayMs"] as? Double == 26.5)
        }
        #expect(try host.waitFor("error", timeout: 0.3) == nil)
        #expect(live.calibrations == [0, 0])
        // A room setting still wins over the calibration.
        try host.sendText(#"{"type":"micDelay","singer":0,"ms":90}"#)
        #expect(try host.waitFor("state") { Self.singers($0).first?["micDelaySource"] as? String == "room" } != nil)
    }

    /// The test clicks must be heard alone: while they play, commands that would start the song
    /// (or a second calibration) are refused with `calibrating`, and the state says who is being
    /// calibrated until it is over.
    @Test func playbackWaitsForACalibrationInProgress() throws {
        let live = FakeLiveSession(inputLatencies: [0.004, 0.004], calibrationTime: 1.5)
        let room = try TestRoomServer(liveSession: live, roomPlayer: MeasuredPlayer(outputLatency: 0.03))
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try Self.hostHello(host)
        try host.sendText(#"{"type":"calibrate","singer":1,"id":1}"#)
        #expect(try host.waitFor("state") { $0["calibratingSinger"] as? Int == 1 } != nil)
        for (id, command) in [(2, #""type":"play""#), (3, #""type":"next""#), (4, #""type":"previous""#),
                              (5, #""type":"calibrate","singer":0"#)] {
            try host.sendText("{\(command),\"id\":\(id)}")
            let refused = try #require(try host.waitFor("error") { $0["id"] as? Int == id })
            #expect(refused["code"] as? String == "calibrating", "\(command): \(refused)")
            #expect((refused["message"] as? String)?.contains("singer 2's microphone is being calibrated") == true)
        }
        let done = try #require(try host.waitFor("state", timeout: 5) { $0["calibratingSinger"] == nil })
        #expect(Self.singers(done).last?["micDelaySource"] as? String == "calibrated")
        #expect(live.calibrations == [1])
        try host.sendText(#"{"type":"play","id":6}"#)
        #expect(try host.waitFor("state") { $0["transport"] as? String == "playing" } != nil)
    }

    @Test func calibrationIsRefusedWhilePlayingAndForASingerWithoutAMicrophone() throws {
        let live = FakeLiveSession(inputLatencies: [0.004])
        let room = try TestRoomServer(liveSession: live, roomPlayer: MeasuredPlayer(outputLatency: 0.03))
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try Self.hostHello(host)
        try host.sendText(#"{"type":"calibrate","singer":1,"id":3}"#)
        let noMic = try #require(try host.waitFor("error"))
        #expect(noMic["code"] as? String == "badArguments" && noMic["id"] as? Int == 3)

        try host.sendText(#"{"type":"play"}"#)
        #expect(try host.waitFor("state") { $0["transport"] as? String == "playing" } != nil)
        try host.sendText(#"{"type":"calibrate","singer":0,"id":4}"#)
        let playing = try #require(try host.waitFor("error"))
        #expect(playing["code"] as? String == "failed" && playing["id"] as? Int == 4)
        #expect((playing["message"] as? String)?.contains("stop playback") == true)
        #expect(live.calibrations.isEmpty)

        try host.sendText(#"{"type":"pause"}"#)
        try host.sendText(#"{"type":"calibrate","singer":0,"id":5}"#)
        #expect(try host.waitFor("state") { Self.singers($0).first?["micDelaySource"] as? String == "calibrated" } != nil)
        #expect(live.calibrations == [0])
    }

    @Test func aStoppedRoomStillSendsLatencyReadingsThatChanged() throws {
        let player = MeasuredPlayer(outputLatency: 0.03)
        let live = FakeLiveSession(inputLatencies: [0.004])
        let room = try TestRoomServer(liveSession: live, roomPlayer: player)
        defer { room.stop() }
        let watcher = try room.client()
        // The device went away: the stream is gone, so the reading is too.
        player.setOutputLatency(nil)
        let lost = try #require(try watcher.waitFor("state", timeout: 3) { $0["outputLatencyMs"] == nil })
        #expect(lost["transport"] as? String == "stopped")
        live.setInputLatency(0.012, singer: 0)
        player.setOutputLatency(0.0605)
        let back = try #require(try watcher.waitFor("state", timeout: 3) { $0["outputLatencyMs"] as? Double == 60.5 })
        #expect(Self.singers(back).first?["inputLatencyMs"] as? Double == 12)
        // Breathing within a few milliseconds is not news: no state follows while nothing else changes.
        player.setOutputLatency(0.0625)
        #expect(try watcher.waitFor("state", timeout: 1.5) == nil)
    }

    /// While playing, every periodic `state` reads the player now: a move smaller than the
    /// stopped room's 5 ms news threshold still shows in the next one, so nothing is frozen at
    /// the song's start. (Through PulseAudio, two readings a second apart can be equal when the
    /// ticker and the sink's write cycle keep the same phase, so the end-to-end test cannot ask this.)
    @Test func aPlayingRoomsPeriodicStateTakesAFreshReading() throws {
        let player = MeasuredPlayer(outputLatency: 0.03)
        let room = try TestRoomServer(roomPlayer: player)
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        try host.sendText(#"{"type":"play"}"#)
        let first = try #require(try host.waitFor("state", timeout: 3) { $0["transport"] as? String == "playing" })
        #expect(first["outputLatencyMs"] as? Double == 30)
        player.setOutputLatency(0.0312)
        let later = try #require(try host.waitFor("state", timeout: 3) { $0["outputLatencyMs"] as? Double != 30 },
                                 "no periodic state carried the new reading")
        #expect(later["outputLatencyMs"] as? Double == 31.2)
        #expect(later["transport"] as? String == "playing")
    }

    @Test func withoutAudioNothingIsMeasuredOrResolved() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let state = try Self.hostHello(try room.client(role: "host", pin: TestRoomServer.pin))
        #expect(state["audio"] as? Bool == false)
        #expect(state.keys.contains("outputLatencyMs") == false)
        for singer in Self.singers(state) {
            #expect(singer.keys.contains("inputLatencyMs") == false && singer.keys.contains("micDelaySource") == false)
        }
    }

    @Test func micDelayResolvesRoomSettingThenCalibrationThenDefault() {
        #expect(EffectiveMicDelay.resolve(roomSettingMs: 250, calibrated: 0.03, defaultDelay: 0.14)
                == EffectiveMicDelay(seconds: 0.25, source: .room))
        #expect(EffectiveMicDelay.resolve(roomSettingMs: 0, calibrated: 0.03, defaultDelay: 0.14)
                == EffectiveMicDelay(seconds: 0.03, source: .calibrated))
        #expect(EffectiveMicDelay.resolve(roomSettingMs: nil, calibrated: 0, defaultDelay: 0.14)
                == EffectiveMicDelay(seconds: 0, source: .calibrated), "a calibration that measured 0 is still a calibration")
        #expect(EffectiveMicDelay.resolve(roomSettingMs: nil, calibrated: nil, defaultDelay: 0.14)
                == EffectiveMicDelay(seconds: 0.14, source: .default))
    }
}
