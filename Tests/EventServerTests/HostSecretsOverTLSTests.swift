import EventServer
import Foundation
import KaraokeRoom
import Synchronization
import Testing
import TestSupport

/// With `serve --tls`, the room PIN and host tokens travel only over TLS: on the plain port
/// anyone on the wifi reads them, and a token read there worked from any address.
@Suite struct HostSecretsOverTLSTests {
    static let secureRemote = "https://karaoke.lan:8443/remote"

    func room(secretsOnlyOverTLS: Bool) -> (Room, SentEvents, any EventServerDelegate) {
        var options = Room.Options(pin: RoomPin(TestRoomServer.pin)!, audio: false)
        options.secretsOnlyOverTLS = secretsOnlyOverTLS
        options.secureRemoteURL = Self.secureRemote
        let room = Room(player: ClockPlayer(), catalog: TestSong.catalog, options: options)
        let transport = SentEvents()
        room.start(transport: transport)
        return (room, transport, room.connectionHandler)
    }

    @Test func thePinAndTokensAreRefusedOnPlainConnectionsButFromThisMachine() throws {
        let (room, sent, handler) = room(secretsOnlyOverTLS: true)
        defer { room.shutdown() }
        let hostPin = #"{"type":"hello","role":"host","pin":"\#(TestRoomServer.pin)"}"#

        // Over TLS the host gets in, with a token.
        handler.clientConnected(ClientInfo(id: 1, peerAddress: "192.168.1.20", overTLS: true))
        handler.client(1, sent: hostPin)
        #expect(waitUntil(timeout: 10) { sent.hellos(to: 1).contains { $0.role == .host } })
        let token = try #require(sent.hellos(to: 1).compactMap(\.hostToken).first)
        #expect(sent.hellos(to: 1).allSatisfy { $0.secretsNeedTLS == nil }, "a TLS page is told nothing")

        // A guest's phone on plain http is told, on connect, where the host controls are.
        handler.clientConnected(ClientInfo(id: 2, peerAddress: "192.168.1.30"))
        #expect(waitUntil(timeout: 10) { !sent.hellos(to: 2).isEmpty })
        let first = try #require(sent.hellos(to: 2).first)
        #expect(first.secretsNeedTLS == true && first.secureRemote == Self.secureRemote)
        // The right PIN sent there anyway is refused; so is the token an eavesdropper could replay.
        handler.client(2, sent: hostPin)
        handler.client(2, sent: #"{"type":"hello","role":"host","token":"\#(token)"}"#)
        #expect(waitUntil(timeout: 10) { sent.errors(to: 2).count == 2 })
        #expect(sent.errors(to: 2) == ["secureConnectionRequired", "secureConnectionRequired"])
        #expect(!sent.hellos(to: 2).contains { $0.role == .host })

        // The server's own machine (the host at the TV) may use the plain port.
        handler.clientConnected(ClientInfo(id: 3, peerAddress: "127.0.0.1"))
        handler.client(3, sent: hostPin)
        #expect(waitUntil(timeout: 10) { sent.hellos(to: 3).contains { $0.role == .host } })
    }

    @Test func withoutTLSThePlainPortTakesThePin() throws {
        let (room, sent, handler) = room(secretsOnlyOverTLS: false)
        defer { room.shutdown() }
        handler.clientConnected(ClientInfo(id: 1, peerAddress: "192.168.1.20"))
        handler.client(1, sent: #"{"type":"hello","role":"host","pin":"\#(TestRoomServer.pin)"}"#)
        #expect(waitUntil(timeout: 10) { sent.hellos(to: 1).contains { $0.role == .host } })
        #expect(sent.hellos(to: 1).allSatisfy { $0.secretsNeedTLS == nil })
    }

    @Test func loopbackAddressesAreKnown() {
        for peer in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"] {
            #expect(ClientAddress.isLoopback(peer), "\(peer)")
        }
        for peer in ["192.168.1.20", "10.0.0.1", "::ffff:192.168.1.2", "fe80::1%eth0", "::", "2001:db8::1"] {
            #expect(!ClientAddress.isLoopback(peer), "\(peer)")
        }
    }
}
