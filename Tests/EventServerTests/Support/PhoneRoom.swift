import EventServer
import Foundation
import KaraokeRoom
import Testing

/// A room whose server's delegate is `PhoneSeats` (as `serve` wires it), without a live session.
final class PhoneRoom {
    let server: EventServer
    let room: Room
    let phones: PhoneSeats
    let root: URL
    var port: Int { server.port }

    /// `firstSinger`: phone slot 0 is this singer (the seats before it are room microphones).
    init(firstSinger: Int = 0) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "<!doctype html>".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let options = Room.Options(pin: RoomPin("4321")!, audio: false, tickInterval: 0.02, stateInterval: 0.5)
        room = Room(player: ClockPlayer(), catalog: TestSong.catalog, options: options)
        server = EventServer(configuration: EventServerConfiguration(host: "127.0.0.1", port: 0, publicDirectory: root.path,
                                                                     idlePingSeconds: 600))
        let server = server
        phones = PhoneSeats(room: room, firstSinger: firstSinger) { message, client in server.send(message, to: client) }
        room.start(transport: server)
        try server.start(delegate: phones)
    }

    func stop() {
        server.stop()
        room.shutdown()
        try? FileManager.default.removeItem(at: root)
    }

    /// A client holding a phone seat, with the seat's slot.
    func seated(_ name: String) throws -> (WebSocketTestClient, Int) {
        let (client, seat) = try seatedClient(name: name)
        return (client, try #require(seat["slot"] as? Int))
    }

    /// Waits until the server counts `count` open connections (its delegate was told of the rest).
    func waitForConnections(_ count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if server.statistics.connectedClients == count { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// A client holding a phone seat; returns it with the `phoneMicSeat` reply.
    func seatedClient(name: String) throws -> (WebSocketTestClient, [String: Any]) {
        let client = try WebSocketTestClient(port: port)
        _ = try client.waitFor("hello")
        try client.sendText(#"{"type":"phoneMic","name":"\#(name)"}"#)
        let seat = try #require(try client.waitFor("phoneMicSeat"))
        return (client, seat)
    }
}
