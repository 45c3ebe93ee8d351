@testable import AudioEngine
import Foundation
import Testing

@Suite struct SPSCRingBufferTests {
    @Test func capacityRoundsUpToPowerOfTwo() {
        #expect(SPSCRingBuffer<Float>(minimumCapacity: 1000, initialValue: 0).capacity == 1024)
    }

    @Test func writeReadWrapsAround() {
        let ring = SPSCRingBuffer<Float>(minimumCapacity: 8, initialValue: 0)
        var out = [Float](repeating: 0, count: 8)
        for round in 0..<5 {
            let input = (0..<6).map { Float(round * 10 + $0) }
            #expect(input.withUnsafeBufferPointer { ring.write($0) } == 6)
            #expect(ring.availableToRead == 6)
            let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            #expect(n == 6)
            #expect(Array(out[0..<6]) == input)
        }
    }

    @Test func fullRingAcceptsOnlyWhatFits() {
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 4, initialValue: 0)
        #expect([1, 2, 3].withUnsafeBufferPointer { ring.write($0) } == 3)
        #expect([4, 5, 6].withUnsafeBufferPointer { ring.write($0) } == 1)
        #expect(!ring.write(7))
        #expect(ring.read() == 1)
        #expect(ring.write(8))
        var out = [Int](repeating: 0, count: 10)
        #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0) } == 4)
        #expect(Array(out[0..<4]) == [2, 3, 4, 8])
        #expect(ring.read() == nil)
    }

    /// A producer and a consumer thread move 2 million values; every one arrives, in order.
    @Test func concurrentProducerConsumerKeepsOrder() async {
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 1024, initialValue: -1)
        let total = 2_000_000
        let producer = Thread {
            var next = 0
            var block = [Int](repeating: 0, count: 97)
            while next < total {
                let n = min(block.count, total - next)
                for i in 0..<n { block[i] = next + i }
                let written = block.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                next += written
                if written == 0 { sched_yield() }
            }
        }
        producer.start()
        var expected = 0
        var mismatches = 0
        var out = [Int](repeating: 0, count: 61)
        while expected < total {
            let n = out.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            for i in 0..<n where out[i] != expected + i { mismatches += 1 }
            expected += n
            if n == 0 { sched_yield() }
        }
        #expect(mismatches == 0)
        #expect(expected == total)
        #expect(ring.totalWritten == total)
    }
}
