import EventServer
import Foundation
import KaraokeRoom
import Testing
import TestSupport

/// A seat is its singer's: a guest takes a free one and changes only their own; the host
/// changes any; a name is one seat's at a time. (A guest from another address renamed Ann's seat
/// "Mallory", and two seats could both sing as "Ann".)
@Suite struct SeatOwnershipTests {
    static func selectSinger(_ singer: Int, name: String) -> String {
        #"{"type":"selectSinger","singer":\#(singer),"part":0,"name":"\#(name)"}"#
    }

    @Test func guestsChangeOnlyTheirOwnSeatAndNamesAreUnique() throws {
        let room = Room(player: ClockPlayer(), catalog: TestSong.catalog,
                        options: Room.Options(pin: RoomPin(TestRoomServer.pin)!, audio: false))
        let sent = SentEvents()
        room.start(transport: sent)
        defer { room.shutdown() }
        let handler = room.connectionHandler
        let (ann, mallory, host) = (ClientID(1), ClientID(2), ClientID(3))
        handler.clientConnected(ClientInfo(id: ann, peerAddress: "192.168.1.20"))
        handler.clientConnected(ClientInfo(id: mallory, peerAddress: "192.168.1.66"))
        handler.clientConnected(ClientInfo(id: host, peerAddress: "127.0.0.1"))
        for guest in [ann, mallory] { handler.client(guest, sent: #"{"type":"hello","role":"guest"}"#) }
        handler.client(host, sent: #"{"type":"hello","role":"host","pin":"\#(TestRoomServer.pin)"}"#)
        #expect(waitUntil(timeout: 10) { sent.hellos(to: host).contains { $0.role == .host } })

        handler.client(ann, sent: Self.selectSinger(0, name: "Ann"))
        handler.client(mallory, sent: Self.selectSinger(0, name: "Mallory"))  // Ann's seat
        handler.client(mallory, sent: Self.selectSinger(1, name: "ann"))      // Ann's name
        handler.client(mallory, sent: Self.selectSinger(1, name: "Mal"))      // a free seat: hers now
        handler.client(ann, sent: Self.selectSinger(1, name: "Ann"))          // Mallory's seat
        #expect(waitUntil(timeout: 10) { sent.errors(to: mallory).count == 2 && sent.errors(to: ann).count == 1 })
        #expect(sent.errors(to: mallory) == ["seatTaken", "nameTaken"])
        #expect(sent.errors(to: ann) == ["seatTaken"])
        #expect(waitUntil(timeout: 10) { sent.singerNames() == ["Ann", "Mal"] }, "\(sent.singerNames() ?? [])")

        // The host may rename anyone's seat, but not to a name another seat has.
        handler.client(host, sent: Self.selectSinger(0, name: "Mal"))
        handler.client(host, sent: Self.selectSinger(0, name: "Annie"))
        #expect(waitUntil(timeout: 10) { sent.singerNames()?.first == "Annie" })
        #expect(sent.errors(to: host) == ["nameTaken"])

        // A guest who leaves frees their microphone seat for the next one.
        handler.clientDisconnected(ann)
        handler.client(mallory, sent: Self.selectSinger(0, name: "Mallory"))
        #expect(waitUntil(timeout: 10) { sent.singerNames()?.first == "Mallory" })
        #expect(sent.errors(to: mallory).count == 2)
    }
}
