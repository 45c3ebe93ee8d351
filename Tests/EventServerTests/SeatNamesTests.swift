import EventServer
import Foundation
import KaraokeRoom
import Testing
import TestSupport

/// The singer is a person: the name a guest queued a song under becomes the name of the seat
/// that sings it (and of the runs stored from it), and a phone taking a seat under a name another
/// seat has gets a visible suffix. (Runs were stored as "Singer 1" / "Phone 1" though the guests
/// had named themselves.)
@Suite struct SeatNamesTests {
    @Test func aQueuedSongsSingerNamesTheSeatThatSingsIt() throws {
        let live = FakeLiveSession(inputLatencies: [0.01, 0.01])  // two room microphones
        let room = Room(player: ClockPlayer(), catalog: TestSong.catalog,
                        options: Room.Options(pin: RoomPin(TestRoomServer.pin)!, audio: false))
        let sent = SentEvents()
        room.start(transport: sent, liveSession: live)
        defer { room.shutdown() }
        let handler = room.connectionHandler
        let (ann, bo, cy, host) = (ClientID(1), ClientID(2), ClientID(3), ClientID(4))
        for (client, address) in [(ann, "192.168.1.20"), (bo, "192.168.1.21"), (cy, "192.168.1.22"), (host, "127.0.0.1")] {
            handler.clientConnected(ClientInfo(id: client, peerAddress: address))
        }
        for (client, name) in [(ann, "Ann"), (bo, "Bo"), (cy, "Cy")] {
            handler.client(client, sent: #"{"type":"hello","role":"guest","name":"\#(name)"}"#)
        }
        handler.client(host, sent: #"{"type":"hello","role":"host","pin":"\#(TestRoomServer.pin)"}"#)
        #expect(waitUntil(timeout: 10) { sent.hellos(to: host).contains { $0.role == .host } })

        // Cy took the second microphone for herself; Ann and Bo queue under their names.
        handler.client(cy, sent: SeatOwnershipTests.selectSinger(1, name: "Cy"))
        handler.client(ann, sent: #"{"type":"queueAdd","songId":"test"}"#)
        handler.client(bo, sent: #"{"type":"queueAdd","songId":"second"}"#)
        handler.client(cy, sent: #"{"type":"queueAdd","songId":"second"}"#)
        #expect(waitUntil(timeout: 10) { sent.sent.withLock { $0.filter { if case .queued = $0.event { true } else { false } }.count } == 3 })

        // Ann's song: the free microphone is hers, and her runs start under her name.
        handler.client(host, sent: #"{"type":"play"}"#)
        #expect(waitUntil(timeout: 10) { live.loadedSeatNames.count == 1 })
        #expect(live.loadedSeatNames.last == ["Ann", "Cy"])
        #expect(sent.singerNames() == ["Ann", "Cy"])
        // Bo's: the same microphone passes to him; Cy's seat stays hers.
        handler.client(host, sent: #"{"type":"next"}"#)
        #expect(waitUntil(timeout: 10) { live.loadedSeatNames.count == 2 })
        #expect(live.loadedSeatNames.last == ["Bo", "Cy"])
        // Cy's: she sings on her own seat; nobody else's name changes.
        handler.client(host, sent: #"{"type":"next"}"#)
        #expect(waitUntil(timeout: 10) { live.loadedSeatNames.count == 3 })
        #expect(live.loadedSeatNames.last == ["Bo", "Cy"])
        // The host reassigns: the seat's name is the host's choice from then on.
        handler.client(host, sent: SeatOwnershipTests.selectSinger(0, name: "Dee"))
        #expect(waitUntil(timeout: 10) { sent.singerNames() == ["Dee", "Cy"] })
    }

    @Test func aSecondAnnOnAPhoneIsToldSheSingsAsAnn2() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let (_, first) = try room.seatedClient(name: "Ann")
        #expect(first["name"] as? String == "Ann")
        let (_, seat) = try room.seatedClient(name: "ann")
        #expect(seat["name"] as? String == "ann (2)")
        // What every view shows (a client that comes now: its hello carries the seats).
        let viewer = try WebSocketTestClient(port: room.port)
        let state = try #require(try viewer.waitFor("hello")?["state"] as? [String: Any])
        let names = ((state["singers"] as? [[String: Any]]) ?? []).filter { $0["source"] as? String == "phone" }.compactMap { $0["name"] as? String }
        #expect(names.sorted() == ["Ann", "ann (2)"])
        // A third, with a name as long as a name may be: the suffix still fits.
        let long = String(repeating: "x", count: PhoneSeats.maxNameLength)
        let (_, third) = try room.seatedClient(name: long)
        let (_, fourth) = try room.seatedClient(name: long)
        #expect(third["name"] as? String == long)
        #expect(fourth["name"] as? String == String(repeating: "x", count: PhoneSeats.maxNameLength - 4) + " (2)")
    }

    /// A room microphone named for a queued song's singer gives the name up to her phone between
    /// songs (she sings on the phone now); while it sings, the phone gets the suffix instead.
    @Test func aFreeMicrophoneGivesItsNameToThePhoneBetweenSongs() throws {
        let room = try PhoneRoom(firstSinger: 2)  // seats 0 and 1 are room microphones
        defer { room.stop() }
        let host = try WebSocketTestClient(port: room.port)
        _ = try host.waitFor("hello")
        try host.sendText(#"{"type":"hello","role":"host","pin":"4321"}"#)
        _ = try #require(try host.waitFor("hello") { $0["role"] as? String == "host" })
        func names(_ state: [String: Any]) -> [String] {
            ((state["singers"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
        }
        try host.sendText(#"{"type":"queueAdd","songId":"test","requestedBy":"Bo"}"#)
        try host.sendText(#"{"type":"play"}"#)
        #expect(try host.waitFor("state") { names($0).first == "Bo" && $0["transport"] as? String == "playing" } != nil)
        let (_, playing) = try room.seatedClient(name: "Bo")
        #expect(playing["name"] as? String == "Bo (2)")

        try host.sendText(#"{"type":"stop"}"#)
        #expect(try host.waitFor("state") { $0["transport"] as? String == "stopped" } != nil)
        let (_, stopped) = try room.seatedClient(name: "bo")
        #expect(stopped["name"] as? String == "bo")
        #expect(try host.waitFor("state") { names($0).prefix(2) == ["Singer 1", "Singer 2"] && names($0).contains("bo") } != nil)
    }
}
