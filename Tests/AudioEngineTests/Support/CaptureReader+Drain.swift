import AudioEngine
import Foundation

/// A block's position in a recording and the capture time of its first sample.
typealias CaptureStampEntry = (index: Int, time: Double)

extension CaptureReader {
    /// Moves everything readable into `samples`, noting each block's capture stamp.
    mutating func drain(into samples: inout [Float], stamps: inout [CaptureStampEntry]) {
        var buffer = [Float](repeating: 0, count: 4800)
        while true {
            let (n, time) = buffer.withUnsafeMutableBufferPointer { read(into: $0) }
            if n == 0 { return }
            if let time { stamps.append((samples.count, time)) }
            samples.append(contentsOf: buffer[0..<n])
        }
    }

    /// Records for `seconds`, draining every 20 ms.
    mutating func record(seconds: Double) -> (samples: [Float], stamps: [CaptureStampEntry]) {
        var samples: [Float] = [], stamps: [CaptureStampEntry] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            Thread.sleep(forTimeInterval: 0.02)
            drain(into: &samples, stamps: &stamps)
        }
        drain(into: &samples, stamps: &stamps)
        return (samples, stamps)
    }
}
