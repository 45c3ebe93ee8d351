import Foundation
import KaraokeRoom
import RoomProtocol
import Synchronization
import Testing

/// The protocol's first message to every client is `hello` (docs/protocol.md): the room's state,
/// which later events update. Broadcasts (a singer's pitch, 50 a second each) go to every
/// connected client; one sent between a client's connection and its hello was its first message
/// (4 of 13 connects at load 4).
@Suite struct HelloComesFirstTests {
    @Test func aClientJoiningDuringABroadcastFloodHearsHelloFirst() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let flooding = Atomic<Bool>(true)
        let server = room.server
        let flood = Thread {
            while flooding.load(ordering: .relaxed) {
                server.broadcast(ServerEvent.error(ErrorPayload(code: "flood", message: "pitch-like")).message())
                usleep(200)
            }
        }
        flood.start()
        defer { flooding.store(false, ordering: .relaxed) }
        var firsts: [String] = []
        for _ in 0..<30 {
            let client = try WebSocketTestClient(port: room.port)
            let first = try client.receiveJSON(timeout: 10)
            firsts.append(first?["type"] as? String ?? "nothing")
            client.close()
        }
        #expect(firsts.allSatisfy { $0 == "hello" }, "first messages: \(firsts)")
    }
}
