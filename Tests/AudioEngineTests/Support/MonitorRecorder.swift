import AudioEngine
import Foundation

/// Records a PulseAudio source (e.g. `speaker.monitor`) through our own `CaptureEngine`, keeping
/// every sample with its capture host time, so tests can check what was actually heard.
final class MonitorRecorder {
    let capture: CaptureEngine
    private var reader: CaptureReader
    private(set) var samples: [Float] = []
    /// Host time of `samples[0]`-relative blocks: (index in samples, host time).
    private(set) var blockTimes: [CaptureStampEntry] = []

    init(source: String) throws {
        capture = try CaptureEngine(configuration: .init(source: source))
        reader = capture.channels[0].makeReader()
    }

    /// Moves whatever arrived into `samples`.
    func drain() { reader.drain(into: &samples, stamps: &blockTimes) }

    /// Records for `seconds` (draining as it goes).
    func record(for seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            Thread.sleep(forTimeInterval: 0.02)
            drain()
        }
        drain()
    }

    func clear() {
        drain()
        samples.removeAll(keepingCapacity: true)
        blockTimes.removeAll(keepingCapacity: true)
    }

    /// Capture host time of sample `index`.
    func hostTime(ofSample index: Int) -> Double? {
        guard let block = blockTimes.last(where: { $0.index <= index }) ?? blockTimes.first else { return nil }
        return block.time + Double(index - block.index) / capture.configuration.sampleRate
    }

    /// Indices where the signal rises above `threshold` after at least `quiet` seconds below it.
    func onsets(threshold: Float = 0.1, quiet: Double = 0.05, from start: Int = 0) -> [Int] {
        ClickTiming.onsets(in: samples, rate: capture.configuration.sampleRate, threshold: threshold, quiet: quiet, from: start)
    }

    func close() { capture.close() }
}
