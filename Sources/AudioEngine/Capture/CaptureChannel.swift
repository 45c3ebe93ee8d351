import Synchronization

/// When a block of samples entered the microphone: frame `frame` of this channel's sample
/// stream was captured at `hostTime` (HostClock seconds). Later frames follow at the sample rate.
public struct CaptureStamp: Sendable, Equatable, BitwiseCopyable {
    public var frame: Int64
    public var hostTime: Double
    public init(frame: Int64, hostTime: Double) {
        self.frame = frame
        self.hostTime = hostTime
    }
}

/// One singer's microphone signal: mono samples plus capture stamps, each in its own
/// single-producer (record callback) / single-consumer (pitch worker) ring.
public final class CaptureChannel: @unchecked Sendable {
    /// Singer index within its capture engine (the source channel in `.channelsAsSingers`).
    public let index: Int
    public let sampleRate: Double
    public let samples: SPSCRingBuffer<Float>
    public let stamps: SPSCRingBuffer<CaptureStamp>
    /// Signalled by a producer that wakes the reader on each write (a phone seat); a channel
    /// whose producer does not signal is polled (the reader's wait times out).
    public let arrival = SampleArrivalSignal()
    private let overrunFrames = Atomic<Int>(0)

    public init(index: Int, sampleRate: Double, ringSeconds: Double) {
        self.index = index
        self.sampleRate = sampleRate
        samples = SPSCRingBuffer(minimumCapacity: Int(sampleRate * ringSeconds), initialValue: 0)
        stamps = SPSCRingBuffer(minimumCapacity: 1024, initialValue: CaptureStamp(frame: 0, hostTime: 0))
    }

    /// Samples dropped because the consumer fell behind by more than the ring holds.
    public var overruns: Int { overrunFrames.load(ordering: .relaxed) }
    public func countOverrun(_ n: Int) { overrunFrames.add(n, ordering: .relaxed) }

    /// A reader that keeps track of frame numbers and capture times (one per consumer thread).
    /// It starts at the newest sample: audio captured before it was made is skipped.
    public func makeReader() -> CaptureReader {
        samples.skip(Int.max)
        return CaptureReader(channel: self)
    }
}

/// Consumer-side cursor over a `CaptureChannel`; frame numbers count samples through the ring: reads samples and tells when the first of
/// them was captured, so the consumer can map it to media time through the playback clock.
public struct CaptureReader: Sendable {
    public let channel: CaptureChannel
    /// Frame number (in the channel's stream) of the next sample `read` returns.
    public private(set) var nextFrame: Int64 = 0
    private var stamp: CaptureStamp?

    init(channel: CaptureChannel) {
        self.channel = channel
        nextFrame = Int64(channel.samples.totalRead)
    }

    /// Capture time of frame `frame`, from the newest stamp at or before it.
    public func hostTime(ofFrame frame: Int64) -> Double? {
        guard let stamp else { return nil }
        return stamp.hostTime + Double(frame - stamp.frame) / channel.sampleRate
    }

    /// Reads up to `buffer.count` samples; returns how many and the capture time of the first.
    public mutating func read(into buffer: UnsafeMutableBufferPointer<Float>) -> (count: Int, hostTime: Double?) {
        let n = channel.samples.read(into: buffer)
        // Take every stamp that describes frames up to the end of this block.
        while let next = peekStamp(), next.frame <= nextFrame + Int64(max(n, 1)) - 1 || stamp == nil {
            _ = channel.stamps.read()
            stamp = next
        }
        let time = hostTime(ofFrame: nextFrame)
        nextFrame += Int64(n)
        return (n, time)
    }

    private func peekStamp() -> CaptureStamp? {
        var s = CaptureStamp(frame: 0, hostTime: 0)
        let got = withUnsafeMutablePointer(to: &s) { channel.stamps.peek(into: UnsafeMutableBufferPointer(start: $0, count: 1)) }
        return got == 1 ? s : nil
    }
}
