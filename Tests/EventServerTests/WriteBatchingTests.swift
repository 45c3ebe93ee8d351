import Foundation
import KaraokeRoom
import RoomProtocol
import Testing

/// Messages queued for a client together leave in one socket write (up to
/// `messagesPerWritable`), framed by the server, in order: with one message per pass, the second
/// of two events a room tick encodes together reached the last of 1,000 displays only after a
/// second full round, and with one `send()` per message each client cost two syscalls a tick
/// (docs/server-load.md).
@Suite struct WriteBatchingTests {
    @Test func messagesQueuedTogetherLeaveInFewerWritesAndInOrder() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let client = try room.client()
        let before = room.server.statistics
        let burst = 1024
        // Handed over at once, so all of them wait in the client's queue before its first pass.
        room.server.broadcast(contentsOf: (0..<burst).map {
            ServerEvent.error(ErrorPayload(code: "burst", message: "\($0)")).message()
        })
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
        let writes = after.messageWrites - before.messageWrites
        #expect(messages >= 768)
        // Eight to a write (`messagesPerWritable`), give or take the room's own few messages.
        #expect(writes * 8 <= messages + 32, "\(messages) messages in \(writes) socket writes")
    }

    /// `broadcast(contentsOf:)` (what a room tick uses for its `line` and `state`) hands the
    /// messages over as one: every client gets each pair in a single socket write.
    @Test func messagesHandedOverTogetherReachEachClientInOnePass() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let clients = try (0..<8).map { _ in try room.client() }
        let before = room.server.statistics
        let pairs = 64
        for i in 0..<pairs {
            room.server.broadcast(contentsOf: ["line", "state"].map {
                ServerEvent.error(ErrorPayload(code: "pair", message: "\(i) \($0)")).message()
            })
            Thread.sleep(forTimeInterval: 0.002)
        }
        for client in clients {
            var seen = 0
            let deadline = Date().addingTimeInterval(30)
            while seen < 2 * pairs, Date() < deadline {
                guard let message = try client.receiveJSON(timeout: 5) else { break }
                if message["code"] as? String == "pair" { seen += 1 }
            }
            #expect(seen == 2 * pairs)
        }
        // 1,024 pair messages: published at multiples of 256 deliveries, so at least 768 counted.
        let after = room.server.statistics
        let messages = after.deliveries.count - before.deliveries.count
        let writes = after.messageWrites - before.messageWrites
        #expect(messages >= 768)
        print("pairs handed over together: \(messages) messages in \(writes) socket writes")
        // Each pair in one write; the few room messages (state) besides may take a write of their own.
        #expect(writes * 2 <= messages + 32, "\(messages) messages in \(writes) writes")
    }

    /// Frames of every length class (7-bit, 16-bit and 64-bit lengths, RFC 6455 §5.2) joined in
    /// one write arrive whole and in order, and a message larger than the write bound goes alone.
    @Test func framesOfEveryLengthArriveWhole() throws {
        let room = try TestRoomServer()
        defer { room.stop() }
        let client = try room.client()
        let sizes = [3, 125, 126, 200, 65_535, 65_536, 70_000, 10, 300_000, 1]
        room.server.broadcast(contentsOf: sizes.enumerated().map { index, size in
            ServerEvent.error(ErrorPayload(code: "size", message: "\(index):" + String(repeating: "x", count: size))).message()
        })
        var next = 0
        let deadline = Date().addingTimeInterval(30)
        while next < sizes.count, Date() < deadline {
            guard let message = try client.receiveJSON(timeout: 5) else { break }
            guard message["code"] as? String == "size", let text = message["message"] as? String else { continue }
            #expect(text == "\(next):" + String(repeating: "x", count: sizes[next]))
            next += 1
        }
        #expect(next == sizes.count)
    }
}
