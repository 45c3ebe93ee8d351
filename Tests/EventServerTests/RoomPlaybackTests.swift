import Foundation
import KaraokeRoom
import RoomProtocol
import SongModel
import Synchronization
import Testing

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let value = Mutex(100.0)
    func now() -> Double { value.withLock { $0 } }
    func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
}

@Suite("ClockPlayer and room playback")
struct RoomPlaybackTests {
    @Test func clockPlayerFollowsTempoPauseSeekAndEnd() throws {
        let clock = ManualClock()
        let player = ClockPlayer(clock: { clock.now() })
        try player.load(backingTrack: nil, duration: 10)
        #expect(player.position == 0 && !player.isPlaying)
        player.play()
        clock.advance(2)
        #expect(abs(player.position - 2) < 1e-9)
        player.setTempo(0.5)
        clock.advance(2)
        #expect(abs(player.position - 3) < 1e-9)
        player.pause()
        clock.advance(5)
        #expect(abs(player.position - 3) < 1e-9 && !player.isPlaying)
        player.seek(to: 8)
        player.setTempo(1)
        player.play()
        clock.advance(5)
        #expect(player.position == 10)
        #expect(!player.isPlaying)
        player.play()   // at the end, play restarts from the top
        clock.advance(1)
        #expect(abs(player.position - 1) < 1e-9)
    }

    @Test func clockPlayerLoopsBetweenAAndB() throws {
        let clock = ManualClock()
        let player = ClockPlayer(clock: { clock.now() })
        try player.load(backingTrack: nil, duration: 30)
        player.setLoop(4...6)
        player.play()
        clock.advance(5)
        #expect(abs(player.position - 5) < 1e-9)
        clock.advance(2)   // 7 → wraps to 4 + 1
        #expect(abs(player.position - 5) < 1e-9)
        clock.advance(1.5) // 6.5 → 4.5
        #expect(abs(player.position - 4.5) < 1e-9)
        player.setLoop(nil)
        clock.advance(3)
        #expect(abs(player.position - 7.5) < 1e-9)
    }

    @Test func seekLineJumpsToTheLineAndLineEventsFollowPlayback() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        try host.sendText(#"{"type":"seekLine","part":0,"line":2}"#)
        #expect(try host.waitFor("line") { ($0["line"] as? Int) == 2 } != nil)
        #expect(abs(room.player.position - 6) < 0.05)
        try host.sendText(#"{"type":"play"}"#)
        // Line 3 starts at 8.5 s, 2.5 s later.
        #expect(try host.waitFor("line", timeout: 5) { ($0["line"] as? Int) == 3 } != nil)
    }

    @Test func queueNextAndUnreadableSongs() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        try host.sendText(#"{"type":"queueAdd","songId":"broken"}"#)
        #expect(try host.waitFor("error")?["code"] as? String == "unreadableSong")
        try host.sendText(#"{"type":"queueAdd","songId":"second"}"#)
        try host.sendText(#"{"type":"next"}"#)
        let song = try #require(try host.waitFor("song"))
        #expect((song["song"] as? [String: Any])?["id"] as? String == "second")
        #expect(try host.waitFor("state") { ($0["songId"] as? String) == "second" && ($0["transport"] as? String) == "playing" } != nil)
    }

    @Test func liveResultsReachEveryClientAndLateJoiners() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let watcher = try room.client()
        room.room.publishLineScore(LineScorePayload(singer: 0, part: 0, line: 0, score: 420, maxScore: 500, rating: "great"))
        room.room.publishPitch(PitchPayload(singer: 0, time: 1.2, hz: 261.6, midi: 60, target: 60, hit: true))
        #expect(try watcher.waitFor("lineScore")?["rating"] as? String == "great")
        let late = try WebSocketTestClient(port: room.port)
        let hello = try #require(try late.waitFor("hello"))
        #expect((hello["results"] as? [[String: Any]])?.count == 1)
    }

    /// The live session's results of the previous song can reach the room after the next song
    /// was chosen (its final totals are published when its runs end): they must not count for it.
    @Test func resultsOfAnotherSongAreDropped() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let watcher = try room.client()
        room.room.publishLineScore(LineScorePayload(singer: 0, part: 0, line: 5, score: 100, maxScore: 500, rating: "poor", songId: "second"))
        room.room.publishTotal(TotalPayload(singer: 0, name: "Old Song", score: 9000, final: true, songId: "second"))
        room.room.publishLineScore(LineScorePayload(singer: 0, part: 0, line: 0, score: 420, maxScore: 500, rating: "great", songId: "test"))
        room.room.publishTotal(TotalPayload(singer: 0, name: "Ann", score: 420, final: false, songId: "test"))
        #expect(try watcher.waitFor("lineScore")?["line"] as? Int == 0, "the other song's line reached the clients")
        #expect(try watcher.waitFor("total")?["name"] as? String == "Ann", "the other song's total reached the clients")
        let late = try WebSocketTestClient(port: room.port)
        let hello = try #require(try late.waitFor("hello"))
        #expect((hello["results"] as? [[String: Any]])?.map { $0["line"] as? Int } == [0])
    }

    @Test func playerPausingByItselfShowsPausedAndTheEndFinishesTheSong() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        try host.sendText(#"{"type":"play"}"#)
        #expect(try host.waitFor("state") { ($0["transport"] as? String) == "playing" } != nil)
        room.player.pause()   // what the audio engine does when its output device disappears
        #expect(try host.waitFor("state") { ($0["transport"] as? String) == "paused" } != nil)
        try host.sendText(#"{"type":"seek","position":11.8}"#)
        try host.sendText(#"{"type":"play"}"#)
        #expect(try host.waitFor("results", timeout: 3) != nil)
        #expect(try host.waitFor("state") { ($0["transport"] as? String) == "stopped" } != nil)
    }
}
