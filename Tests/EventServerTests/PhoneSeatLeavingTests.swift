import EventServer
import Foundation
import KaraokeRoom
import Testing

/// Issue 40: a phone that left held its seat 60 s, so eight phones leaving blocked every seat
/// for a minute. A page that closes says so (its close frame's status 1001, "going away"; 1000
/// from a client that is done) and its seat is free at once; a connection that drops without a
/// close frame still holds the seat for the resume window.
@Suite("Phone seats: a closed page frees its seat, a dropped one holds it")
struct PhoneSeatLeavingTests {
    final class Room2 {
        let server: EventServer
        let room: Room
        let phones: PhoneSeats
        let root: URL
        var port: Int { server.port }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-leaving-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try "<!doctype html>".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            let options = Room.Options(pin: RoomPin("4321")!, audio: false, tickInterval: 0.02, stateInterval: 0.5)
            room = Room(player: ClockPlayer(), catalog: TestSong.catalog, options: options)
            server = EventServer(configuration: EventServerConfiguration(host: "127.0.0.1", port: 0, publicDirectory: root.path,
                                                                         idlePingSeconds: 600))
            let server = server
            phones = PhoneSeats(room: room, firstSinger: 0) { message, client in server.send(message, to: client) }
            room.start(transport: server)
            try server.start(delegate: phones)
        }

        func stop() {
            server.stop()
            room.shutdown()
            try? FileManager.default.removeItem(at: root)
        }

        func seated(_ name: String) throws -> (WebSocketTestClient, Int) {
            let client = try WebSocketTestClient(port: port)
            _ = try client.waitFor("hello")
            try client.sendText(#"{"type":"phoneMic","name":"\#(name)"}"#)
            let seat = try #require(try client.waitFor("phoneMicSeat"))
            return (client, try #require(seat["slot"] as? Int))
        }

        /// Waits until the server has seen `count` connections end (its delegate was told).
        func waitForConnections(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if server.statistics.connectedClients == count { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
    }

    /// A close frame: status big-endian, as a page's WebSocket sends when the page goes away.
    static func closeFrame(_ status: UInt16) -> [UInt8] { [UInt8(status >> 8), UInt8(status & 0xFF)] }

    @Test(arguments: [UInt16(1001), 1000])
    func aPageThatClosesFreesItsSeatAtOnce(status: UInt16) throws {
        let room = try Room2()
        defer { room.stop() }
        let (ann, annSlot) = try room.seated("Ann")
        let (bo, boSlot) = try room.seated("Bo")
        #expect(annSlot != boSlot)
        try ann.sendFrame(opcode: 8, payload: Self.closeFrame(status))
        #expect(ann.waitForClose(timeout: 5), "the server answers the close")
        ann.close()
        #expect(room.waitForConnections(1))
        // The next phone gets Ann's seat: it was free at once, not held for the resume window.
        let (cy, next) = try room.seated("Cy")
        #expect(next == annSlot)
        withExtendedLifetime((bo, cy)) {}
    }

    @Test func aDroppedConnectionHoldsItsSeatForItsToken() throws {
        let room = try Room2()
        defer { room.stop() }
        let (ann, annSlot) = try room.seated("Ann")
        ann.close() // no close frame: the network went away
        #expect(room.waitForConnections(0))
        let (cy, next) = try room.seated("Cy")
        #expect(next != annSlot, "a dropped phone's seat is held for it")
        // A close frame without a status (what a page's own reconnect sends) holds it too.
        let (bo, boSlot) = try room.seated("Bo")
        try bo.sendFrame(opcode: 8, payload: [])
        _ = bo.waitForClose(timeout: 5)
        bo.close()
        #expect(room.waitForConnections(1))
        let (di, after) = try room.seated("Di")
        #expect(after != boSlot && after != annSlot)
        withExtendedLifetime((cy, di)) {}
    }
}
