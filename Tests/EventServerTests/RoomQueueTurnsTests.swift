import EventServer
import Foundation
import KaraokeRoom
import Testing

@Suite("Room queue: confirmations, singer of the song, key memory, practice flag")
struct RoomQueueTurnsTests {
    static func catalog() -> FixedSongCatalog {
        FixedSongCatalog((1...3).map { n in
            var song = TestSong.make()
            song.metadata.title = "Song \(n)"
            return CatalogEntry(id: "s\(n)", song: song, error: nil, backingTrackPath: nil, duration: 12)
        })
    }

    @Test func aSingersKeyForASongComesBackWhenTheySingItAgain() throws {
        let room = try TestRoomServer(loadSong: false, catalog: Self.catalog())
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"queueAdd","songId":"s1","requestedBy":"Ann","id":7}"#)
        let queued = try #require(try host.waitFor("queued"))
        #expect(queued["id"] as? Int == 7 && queued["position"] as? Int == 1 && queued["folded"] as? Bool == false)
        #expect((queued["item"] as? [String: Any])?["startsIn"] as? Double == 0)
        try host.sendText(#"{"type":"next"}"#)
        _ = try #require(try host.waitFor("state") { ($0["singerName"] as? String) == "Ann" && ($0["songId"] as? String) == "s1" })
        try host.sendText(#"{"type":"key","semitones":3}"#)
        try host.sendText(#"{"type":"tempo","ratio":0.8}"#)
        _ = try #require(try host.waitFor("state") { ($0["tempo"] as? Double) == 0.8 })
        // Someone else's song: the room's key stays until changed; then Ann sings s1 again.
        try host.sendText(#"{"type":"queueAdd","songId":"s2","requestedBy":"Bob"}"#)
        try host.sendText(#"{"type":"next"}"#)
        _ = try #require(try host.waitFor("state") { ($0["songId"] as? String) == "s2" })
        try host.sendText(#"{"type":"key","semitones":0}"#)
        try host.sendText(#"{"type":"tempo","ratio":1}"#)
        _ = try #require(try host.waitFor("state") { ($0["tempo"] as? Double) == 1 && ($0["key"] as? Int) == 0 })
        try host.sendText(#"{"type":"queueAdd","songId":"s1","requestedBy":"ann "}"#)
        try host.sendText(#"{"type":"next"}"#)
        let again = try #require(try host.waitFor("state") { ($0["songId"] as? String) == "s1" })
        #expect(again["key"] as? Int == 3 && again["tempo"] as? Double == 0.8)
    }

    @Test func aSingersKeyIsRememberedAcrossARestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("key-memory.json").path
        let first = try TestRoomServer(loadSong: false, catalog: Self.catalog()) { $0.keyMemoryPath = path }
        let host = try first.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"queueAdd","songId":"s2","requestedBy":"Ann"}"#)
        try host.sendText(#"{"type":"next"}"#)
        _ = try #require(try host.waitFor("state") { ($0["songId"] as? String) == "s2" })
        try host.sendText(#"{"type":"key","semitones":-2}"#)
        try host.sendText(#"{"type":"tempo","ratio":0.9}"#)
        _ = try #require(try host.waitFor("state") { ($0["tempo"] as? Double) == 0.9 && ($0["key"] as? Int) == -2 })
        first.stop()
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let entries = try #require(saved?["entries"] as? [[String: Any]])
        #expect(entries.count == 1 && entries[0]["singer"] as? String == "ann" && entries[0]["songId"] as? String == "s2")

        let second = try TestRoomServer(loadSong: false, catalog: Self.catalog()) { $0.keyMemoryPath = path }
        defer { second.stop() }
        let again = try second.client(role: "host", pin: TestRoomServer.pin)
        _ = try again.waitFor("hello") { ($0["role"] as? String) == "host" }
        try again.sendText(#"{"type":"queueAdd","songId":"s2","requestedBy":"Ann"}"#)
        try again.sendText(#"{"type":"next"}"#)
        let state = try #require(try again.waitFor("state") { ($0["songId"] as? String) == "s2" })
        #expect(state["key"] as? Int == -2 && state["tempo"] as? Double == 0.9)
    }

    @Test func aDamagedKeyMemoryFileStartsEmptyAndIsReplaced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("key-memory.json").path
        try "{not json".write(toFile: path, atomically: true, encoding: .utf8)
        let room = try TestRoomServer(loadSong: false, catalog: Self.catalog()) { $0.keyMemoryPath = path }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"queueAdd","songId":"s3","requestedBy":"Cy"}"#)
        try host.sendText(#"{"type":"next"}"#)
        let state = try #require(try host.waitFor("state") { ($0["songId"] as? String) == "s3" })
        #expect(state["key"] as? Int == 0)
        try host.sendText(#"{"type":"key","semitones":4}"#)
        _ = try #require(try host.waitFor("state") { ($0["key"] as? Int) == 4 })
        room.stop()
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect((saved?["entries"] as? [[String: Any]])?.first?["key"] as? Int == 4)
    }

    @Test func aSeekAfterTheFirstLineMakesAPracticeRunUntilStop() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let host = try room.client(role: "host", pin: TestRoomServer.pin)
        _ = try host.waitFor("hello") { ($0["role"] as? String) == "host" }
        try host.sendText(#"{"type":"seek","position":0}"#)
        #expect(try host.waitFor("state")?["practice"] as? Bool == false, "from the top is a full run")
        try host.sendText(#"{"type":"seek","position":4}"#)
        #expect(try host.waitFor("state")?["practice"] as? Bool == true)
        try host.sendText(#"{"type":"stop"}"#)
        #expect(try host.waitFor("state")?["practice"] as? Bool == false)
    }
}
