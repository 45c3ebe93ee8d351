import EventServer
import Foundation
import KaraokeRoom
import RoomProtocol
import Testing

@Suite("Outbound queues: slow clients")
struct SlowClientTests {
    private func message(_ name: String, _ delivery: OutboundMessage.Delivery) -> OutboundMessage {
        OutboundMessage(text: name, delivery: delivery)
    }

    @Test func queueDropsOldestPitchFirstAndNeverEssentials() {
        var queue = OutboundQueue(limits: .init(softLimit: 4, hardLimit: 6))
        #expect(queue.enqueue(message("p1", .droppable)) == .queued)
        #expect(queue.enqueue(message("s1", .essential)) == .queued)
        #expect(queue.enqueue(message("p2", .droppable)) == .queued)
        #expect(queue.enqueue(message("s2", .essential)) == .queued)
        #expect(queue.enqueue(message("s3", .essential)) == .droppedDroppable(1)) // p1 goes
        #expect(queue.enqueue(message("s4", .essential)) == .droppedDroppable(1)) // p2 goes
        #expect(queue.enqueue(message("p3", .droppable)) == .droppedDroppable(1)) // nothing older to drop: p3 goes
        #expect(queue.enqueue(message("s5", .essential)) == .queued)               // above soft, below hard
        #expect(queue.enqueue(message("s6", .essential)) == .queued)
        #expect(queue.enqueue(message("s7", .essential)) == .overflow)
        var order: [String] = []
        while let next = queue.dequeue() { order.append(String(decoding: next.bytes, as: UTF8.self)) }
        #expect(order == ["s1", "s2", "s3", "s4", "s5", "s6"])
        #expect(queue.droppedCount == 3)
    }

    @Test func slowClientNeverDelaysOthersAndIsEvictedWhenHopeless() throws {
        let room = try TestRoomServer(queueLimits: .init(softLimit: 64, hardLimit: 400))
        defer { room.stop() }
        let slow = try WebSocketTestClient(port: room.port)   // never reads again
        let fast = try room.client()
        // Big pitch frames fill the slow client's socket buffers quickly.
        let padding = String(repeating: "x", count: 4000)
        for i in 0..<3000 {
            room.server.broadcast(OutboundMessage(text: "{\"type\":\"pitch\",\"n\":\(i),\"pad\":\"\(padding)\"}", delivery: .droppable))
            if i % 10 == 0 {
                room.server.broadcast(ServerEvent.error(ErrorPayload(code: "marker", message: "\(i / 10)")).message())
            }
        }
        // The fast client receives every essential marker, in order.
        var next = 0
        let deadline = Date().addingTimeInterval(20)
        while next < 300, Date() < deadline {
            guard let message = try fast.receiveJSON(timeout: 5) else { break }
            if message["type"] as? String == "error", message["code"] as? String == "marker" {
                #expect(message["message"] as? String == "\(next)")
                next += 1
            }
        }
        #expect(next == 300)
        #expect(room.server.statistics.droppedMessages > 0)
        // The slow client's backlog of essentials passes the hard limit; the fast one keeps reading.
        // 16 KiB each: ~10 MB in all, more than the kernel buffers of a client that never reads.
        let bulk = String(repeating: "y", count: 16_000)
        var received = 0
        for batch in 0..<12 {
            for i in 0..<50 { room.server.broadcast(ServerEvent.error(ErrorPayload(code: "more", message: "\(batch * 50 + i) " + bulk)).message()) }
            while received < (batch + 1) * 50, let message = try fast.receiveJSON(timeout: 5) {
                if message["code"] as? String == "more" { received += 1 }
            }
        }
        #expect(received == 600)
        let evicted = (0..<50).contains { _ in
            Thread.sleep(forTimeInterval: 0.1)
            return room.server.statistics.slowClientCloses == 1
        }
        #expect(evicted)
        #expect(room.server.statistics.connectedClients == 1)
        _ = slow
    }
}

@Suite("Delivery delay histogram")
struct DeliveryHistogramTests {
    @Test func quantilesComeFromTheRightBuckets() {
        var histogram = DeliveryHistogram()
        #expect(histogram.quantile(0.5) == nil)
        for _ in 0..<98 { histogram.record(milliseconds: 0.25) }
        histogram.record(milliseconds: 42)
        histogram.record(milliseconds: 250)
        #expect(histogram.count == 100)
        #expect(histogram.quantile(0.5) == 0.3)
        #expect(histogram.quantile(0.99) == 42.1)
        #expect(histogram.quantile(1) == 260)
        histogram.record(milliseconds: 1e9)  // clamps into the last bucket
        #expect(histogram.quantile(1) == 10_000)
    }
}
