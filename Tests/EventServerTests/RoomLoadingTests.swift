import EventServer
import Foundation
import KaraokeRoom
import Testing
import TestSupport

/// Loading a song prepares its audio off the room's queue (`TrackLoader`): the room keeps
/// answering while a load is pending, the newest load wins, `play` during a load starts the
/// song once it is ready, and a failed load is reported with the file and leaves the room usable.
/// `GatedPlayer` makes each load take exactly as long as the test wants.
@Suite("Room: songs load without blocking the room")
struct RoomLoadingTests {
    static let catalog = FixedSongCatalog(["first", "second", "third"].map {
        CatalogEntry(id: $0, song: TestSong.make(), error: nil, backingTrackPath: Self.track($0), duration: 12)
    })

    static func track(_ id: String) -> String { "songs/\(id)/backing.ogg" }

    /// A room on `player` with nothing loaded, and a host client.
    private func makeRoom(_ player: GatedPlayer) throws -> (TestRoomServer, WebSocketTestClient) {
        let server = try TestRoomServer(loadSong: false, roomPlayer: player, catalog: Self.catalog)
        let host = try server.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { $0["role"] as? String == "host" }
        return (server, host)
    }

    private static func state(_ message: [String: Any]?) -> [String: Any]? {
        (message?["state"] as? [String: Any]) ?? message
    }

    @Test func commandsAreServedWhileASongLoads() throws {
        let player = GatedPlayer()
        let (server, host) = try makeRoom(player)
        defer { server.stop() }

        try host.sendText(#"{"type":"queueAdd","songId":"first","playNow":true}"#)
        let song = try #require(try host.waitFor("song"))
        #expect((song["song"] as? [String: Any])?["id"] as? String == "first", "the song is shown while it loads")
        let loading = try #require(try host.waitFor("state") { $0["loading"] as? Bool == true })
        #expect(loading["songId"] as? String == "first")
        #expect(loading["transport"] as? String == "stopped")
        #expect(loading["playWhenLoaded"] as? Bool == true, "play now starts once loaded")
        #expect(waitUntil(timeout: 5) { player.started == [Self.track("first")] }, "the loader is inside prepare")

        // The load is blocked; the room still answers every kind of command.
        try host.sendText(#"{"type":"key","semitones":3}"#)
        let keyed = try #require(try host.waitFor("state") { $0["key"] as? Int == 3 }, "key change answered during the load")
        #expect(keyed["loading"] as? Bool == true)
        try host.sendText(#"{"type":"queueAdd","songId":"second"}"#)
        let queue = try #require(try host.waitFor("queue"), "queue edit answered during the load")
        #expect((queue["queue"] as? [[String: Any]])?.map { $0["songId"] as? String } == ["second"])
        try host.sendText(#"{"type":"seek","position":4,"id":7}"#)
        let refused = try #require(try host.waitFor("error"))
        #expect(refused["code"] as? String == "loading" && refused["id"] as? Int == 7, "\(refused)")

        // A browser connecting now gets its hello (state snapshot) at once, showing the load.
        let late = try WebSocketTestClient(port: server.port)
        let hello = try #require(try late.waitFor("hello", timeout: 2), "hello during the load")
        let snapshot = try #require(Self.state(hello["state"] as? [String: Any]))
        #expect(snapshot["loading"] as? Bool == true && snapshot["songId"] as? String == "first" && snapshot["key"] as? Int == 3)
        #expect((hello["song"] as? [String: Any])?["id"] as? String == "first")
        #expect(player.installed.isEmpty)

        player.open(Self.track("first"))
        let playing = try #require(try host.waitFor("state") { $0["loading"] as? Bool == false }, "no state after the load")
        #expect(playing["transport"] as? String == "playing" && playing["songId"] as? String == "first")
        #expect(playing["key"] as? Int == 3)
        #expect(player.installed == [Self.track("first")])
        #expect(player.clock.key == 3, "the key set during the load applies to the new track")
        #expect(player.isPlaying)
    }

    @Test func aNewerLoadSupersedesTheOlderWhichIsNeverPlayed() throws {
        let player = GatedPlayer()   // ignores cancellation: the old load really completes
        let (server, host) = try makeRoom(player)
        defer { server.stop() }

        try host.sendText(#"{"type":"queueAdd","songId":"first","playNow":true}"#)
        #expect(waitUntil(timeout: 5) { player.started == [Self.track("first")] })
        try host.sendText(#"{"type":"queueAdd","songId":"second","playNow":true}"#)
        #expect(try host.waitFor("song") { ($0["song"] as? [String: Any])?["id"] as? String == "second" } != nil)

        // The old load finishes first; the loader then starts the new one, after the old
        // result was handed to the room's queue.
        player.open(Self.track("first"))
        #expect(waitUntil(timeout: 5) { player.started == [Self.track("first"), Self.track("second")] })
        try host.sendText(#"{"type":"difficulty","level":"hard"}"#)
        let after = try #require(try host.waitFor("state") { $0["difficulty"] as? String == "hard" })
        #expect(after["loading"] as? Bool == true && after["songId"] as? String == "second", "\(after)")
        #expect(player.installed.isEmpty, "the superseded track was installed")
        #expect(!player.isPlaying)

        player.open(Self.track("second"))
        let playing = try #require(try host.waitFor("state") { $0["loading"] as? Bool == false })
        #expect(playing["songId"] as? String == "second" && playing["transport"] as? String == "playing")
        #expect(player.installed == [Self.track("second")])
    }

    @Test func aRunningLoadIsCancelledWhenSuperseded() throws {
        let player = GatedPlayer(honoursCancellation: true)
        let (server, host) = try makeRoom(player)
        defer { server.stop() }

        try host.sendText(#"{"type":"queueAdd","songId":"first","playNow":true}"#)
        #expect(waitUntil(timeout: 5) { player.started == [Self.track("first")] })
        try host.sendText(#"{"type":"queueAdd","songId":"second","playNow":true}"#)
        // The first load gives up without its gate ever opening, and the second starts.
        #expect(waitUntil(timeout: 5) { player.cancelled == [Self.track("first")] && player.started.count == 2 })
        player.open(Self.track("second"))
        let playing = try #require(try host.waitFor("state") { $0["loading"] as? Bool == false })
        #expect(playing["songId"] as? String == "second" && playing["transport"] as? String == "playing")
        #expect(player.installed == [Self.track("second")])
    }

    @Test func playPressedWhileLoadingStartsWhenLoaded() throws {
        let player = GatedPlayer()
        let (server, host) = try makeRoom(player)
        defer { server.stop() }

        try host.sendText(#"{"type":"queueAdd","songId":"first"}"#)
        #expect(try host.waitFor("queue") != nil)
        try host.sendText(#"{"type":"play"}"#)   // no song yet: loads the first queued one
        let pending = try #require(try host.waitFor("state") { $0["loading"] as? Bool == true })
        #expect(pending["playWhenLoaded"] as? Bool == true && pending["transport"] as? String == "stopped")
        try host.sendText(#"{"type":"pause"}"#)
        #expect(try host.waitFor("state") { $0["loading"] as? Bool == true && $0["playWhenLoaded"] as? Bool == false } != nil)
        try host.sendText(#"{"type":"play"}"#)
        #expect(try host.waitFor("state") { $0["loading"] as? Bool == true && $0["playWhenLoaded"] as? Bool == true } != nil)

        player.open(Self.track("first"))
        let playing = try #require(try host.waitFor("state") { $0["loading"] as? Bool == false })
        #expect(playing["transport"] as? String == "playing" && playing["playWhenLoaded"] as? Bool == false)
        #expect(player.isPlaying)
    }

    @Test func pauseWhileLoadingLeavesTheSongStoppedWhenLoaded() throws {
        let player = GatedPlayer()
        let (server, host) = try makeRoom(player)
        defer { server.stop() }

        try host.sendText(#"{"type":"queueAdd","songId":"first","playNow":true}"#)
        #expect(try host.waitFor("state") { $0["playWhenLoaded"] as? Bool == true } != nil)
        try host.sendText(#"{"type":"pause"}"#)
        #expect(try host.waitFor("state") { $0["loading"] as? Bool == true && $0["playWhenLoaded"] as? Bool == false } != nil)
        player.open(Self.track("first"))
        let loaded = try #require(try host.waitFor("state") { $0["loading"] as? Bool == false })
        #expect(loaded["transport"] as? String == "stopped" && loaded["songId"] as? String == "first")
        #expect(player.installed == [Self.track("first")] && !player.isPlaying)
        // Now it is an ordinary loaded song: seeking works.
        try host.sendText(#"{"type":"seek","position":6.5}"#)
        #expect(try host.waitFor("state") { abs(($0["position"] as? Double ?? 0) - 6.5) < 0.01 } != nil)
    }

    @Test func aFailedLoadNamesTheFileAndTheRoomStaysUsable() throws {
        let player = GatedPlayer()
        let (server, host) = try makeRoom(player)
        defer { server.stop() }
        player.fail(Self.track("first"), "File contains data in an unknown format.")

        try host.sendText(#"{"type":"queueAdd","songId":"first","playNow":true}"#)
        let error = try #require(try host.waitFor("error"))
        #expect(error["code"] as? String == "loadFailed")
        #expect((error["message"] as? String)?.contains(Self.track("first")) == true, "\(error)")
        let state = try #require(try host.waitFor("state") { $0["loading"] as? Bool == false })
        #expect(state["songId"] as? String == nil && state["transport"] as? String == "stopped", "\(state)")
        #expect(player.installed.isEmpty)

        // The room goes on: another song loads and plays.
        player.open(Self.track("second"))
        try host.sendText(#"{"type":"queueAdd","songId":"second","playNow":true}"#)
        let playing = try #require(try host.waitFor("state") { $0["loading"] as? Bool == false })
        #expect(playing["songId"] as? String == "second" && playing["transport"] as? String == "playing")
    }

    @Test func loadBySongIdWaitsForTheAudioAndThrowsItsError() throws {
        let player = GatedPlayer()
        let (server, _) = try makeRoom(player)
        defer { server.stop() }
        player.fail(Self.track("third"), "unexpected end of file")
        #expect(throws: GatedPlayer.Failure.self) { try server.room.load(songId: "third") }

        // `load` returns only once the track is installed, while the room stays responsive.
        let watcher = try server.client()
        let (room, done) = (server.room, DispatchSemaphore(value: 0))
        Thread.detachNewThread {
            try? room.load(songId: "first")
            done.signal()
        }
        #expect(waitUntil(timeout: 5) { player.started.last == Self.track("first") })
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut, "load returned before the audio was ready")
        let late = try WebSocketTestClient(port: server.port)
        #expect(try late.waitFor("hello", timeout: 2) != nil, "the room answered while load(songId:) waited")
        player.open(Self.track("first"))
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(player.installed == [Self.track("first")])
        #expect(try watcher.waitFor("state") { $0["loading"] as? Bool == false && $0["songId"] as? String == "first" } != nil)
    }
}
