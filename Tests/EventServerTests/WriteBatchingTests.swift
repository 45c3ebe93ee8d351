import EventServer
import Foundation
import KaraokeRoom
import Testing

/// Messages queued for a client together leave in one writable pass (up to
/// `messagesPerWritable`), in order: with one message per pass, the second of two events a room
/// tick encodes together reached the last of 1,000 displays only after a second full round
/// (docs/server-load.md).
@Suite struct WriteBatchingTests {
    @Test func messagesQueuedTogetherLeaveInFewerPassesAndInOrder() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let client = try room.client()
        let before = room.server.statistics
        let burst = 1024
        for i in 0..<burst {
            room.server.broadcast(ServerEvent.error(ErrorPayload(code: "burst", message: "\(i)")).message())
        }
        var next = 0
        let deadline = Date().addingTimeInterval(30)
        while next < burst, Date() < deadline {
            guard let message = try client.receiveJSON(timeout: 5) else { break }
            guard message["type"] as? String == "error", message["code"] as? String == "burst" else { continue }
            #expect(message["message"] as? String == "\(next)", "out of order")
            next += 1
        }
        #expect(next == burst)
        // Published every 256 deliveries: at least 768 of the burst are counted by now.
        let after = room.server.statistics
        let messages = after.deliveries.count - before.deliveries.count
        let passes = after.writePasses - before.writePasses
        #expect(messages >= 512)
        #expect(passes * 2 <= messages, "\(messages) messages in \(passes) writable passes")
    }
}
