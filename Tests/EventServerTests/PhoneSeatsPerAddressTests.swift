import EventServer
import Foundation
import KaraokeRoom
import Synchronization
import Testing

/// One address holds at most `PhoneSeats.seatsPerAddress` phone seats; only this machine is
/// exempt, decided on the real peer address, not on the per-address key (`::2` and `::1` share
/// the key `0:0:0:0::/64`, and only `::1` is loopback).
@Suite struct PhoneSeatsPerAddressTests {
    @Test func aPeerSharingLoopbacksKeyIsLimitedLikeAnyOtherAndLoopbackIsNot() throws {
        let options = Room.Options(pin: RoomPin("4321")!, audio: false, tickInterval: 0.02, stateInterval: 0.5)
        let room = Room(player: ClockPlayer(), catalog: TestSong.catalog, options: options)
        defer { room.shutdown() }
        let replies = Mutex<[ClientID: [String]]>([:])
        let phones = PhoneSeats(room: room, firstSinger: 0) { message, client in
            let text = String(decoding: message.bytes, as: UTF8.self)
            replies.withLock { $0[client, default: []].append(text) }
        }
        func take(_ id: ClientID, from peer: String) {
            phones.clientConnected(ClientInfo(id: id, peerAddress: peer))
            phones.client(id, sent: #"{"type":"phoneMic","name":"P\#(id)"}"#)
        }
        func answer(_ id: ClientID) throws -> String {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let first = replies.withLock({ $0[id]?.first }) { return first }
                Thread.sleep(forTimeInterval: 0.01)
            }
            throw PhoneSeatsTestError.noAnswer(id)
        }
        for id: ClientID in 1...3 { take(id, from: "::2") }
        for id: ClientID in 1...2 { #expect(try answer(id).contains("phoneMicSeat")) }
        #expect(try answer(3).contains("phoneSeatsFull"))
        for id: ClientID in 11...13 { take(id, from: "::1") }
        for id: ClientID in 11...13 { #expect(try answer(id).contains("phoneMicSeat"), "loopback holds more than two seats") }
    }
}

private enum PhoneSeatsTestError: Error { case noAnswer(ClientID) }
