import Synchronization

/// A lock-free single-producer / single-consumer ring of plain values (samples, time stamps).
///
/// One thread writes (e.g. the PulseAudio record callback), one other thread reads (e.g. the
/// pitch worker). Neither ever blocks or allocates after `init`: a full ring makes `write`
/// accept fewer elements (the caller counts the overrun), an empty ring makes `read` return 0.
/// Indices grow without wrapping (Int is 64-bit) and are masked into a power-of-two storage.
public final class SPSCRingBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Element>
    /// Total elements ever written; only the producer stores it.
    private let writeIndex = Atomic<Int>(0)
    /// Total elements ever read; only the consumer stores it.
    private let readIndex = Atomic<Int>(0)

    /// - Parameter minimumCapacity: rounded up to a power of two.
    public init(minimumCapacity: Int, initialValue: Element) {
        precondition(minimumCapacity > 0, "ring capacity must be positive")
        var size = 1
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
        storage.initialize(repeating: initialValue, count: size)
    }

    deinit { storage.deallocate() }

    /// Elements the consumer can read now.
    public var availableToRead: Int {
        writeIndex.load(ordering: .acquiring) - readIndex.load(ordering: .acquiring)
    }

    /// Space the producer can fill now.
    public var availableToWrite: Int { capacity - availableToRead }

    /// Producer side: copies as many elements as fit; returns how many were written.
    @discardableResult
    public func write(_ source: UnsafeBufferPointer<Element>) -> Int {
        guard let base = source.baseAddress else { return 0 }
        let w = writeIndex.load(ordering: .relaxed)
        let r = readIndex.load(ordering: .acquiring)
        let count = min(source.count, capacity - (w - r))
        if count <= 0 { return 0 }
        let start = w & mask
        let first = min(count, capacity - start)
        (storage + start).update(from: base, count: first)
        if count > first { storage.update(from: base + first, count: count - first) }
        writeIndex.store(w + count, ordering: .releasing)
        return count
    }

    /// Producer side: appends one element if there is room.
    @discardableResult
    public func write(_ value: Element) -> Bool {
        let w = writeIndex.load(ordering: .relaxed)
        let r = readIndex.load(ordering: .acquiring)
        if w - r >= capacity { return false }
        storage[w & mask] = value
        writeIndex.store(w + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: copies up to `destination.count` elements; returns how many were read.
    @discardableResult
    public func read(into destination: UnsafeMutableBufferPointer<Element>) -> Int {
        let count = peek(into: destination)
        if count > 0 { readIndex.store(readIndex.load(ordering: .relaxed) + count, ordering: .releasing) }
        return count
    }

    /// Consumer side: copies without consuming.
    public func peek(into destination: UnsafeMutableBufferPointer<Element>) -> Int {
        guard let base = destination.baseAddress else { return 0 }
        let r = readIndex.load(ordering: .relaxed)
        let w = writeIndex.load(ordering: .acquiring)
        let count = min(destination.count, w - r)
        if count <= 0 { return 0 }
        let start = r & mask
        let first = min(count, capacity - start)
        base.update(from: storage + start, count: first)
        if count > first { (base + first).update(from: storage, count: count - first) }
        return count
    }

    /// Consumer side: reads one element.
    public func read() -> Element? {
        let r = readIndex.load(ordering: .relaxed)
        let w = writeIndex.load(ordering: .acquiring)
        if w == r { return nil }
        let value = storage[r & mask]
        readIndex.store(r + 1, ordering: .releasing)
        return value
    }

    /// Consumer side: discards up to `count` elements.
    @discardableResult
    public func skip(_ count: Int) -> Int {
        let r = readIndex.load(ordering: .relaxed)
        let n = min(count, writeIndex.load(ordering: .acquiring) - r)
        if n > 0 { readIndex.store(r + n, ordering: .releasing) }
        return max(n, 0)
    }

    /// Total elements ever written (producer's count), e.g. to number captured frames.
    public var totalWritten: Int { writeIndex.load(ordering: .acquiring) }
    /// Total elements ever read.
    public var totalRead: Int { readIndex.load(ordering: .acquiring) }
}
