/// The most recent `capacity` samples of a stream, always readable as one contiguous block
/// (each sample is written twice, `capacity` apart). Starts as silence. No allocation after init.
final class SampleHistory {
    let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private var writeIndex = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        storage = .allocate(capacity: 2 * capacity)
        storage.initialize(repeating: 0, count: 2 * capacity)
    }

    deinit { storage.deallocate() }

    @inline(__always)
    func append(_ x: Float) {
        storage[writeIndex] = x
        storage[writeIndex + capacity] = x
        writeIndex += 1
        if writeIndex == capacity { writeIndex = 0 }
    }

    /// The `count` samples that end `skippingNewest` samples before the newest one, oldest first.
    @inline(__always)
    func latest(_ count: Int, skippingNewest skip: Int = 0) -> UnsafePointer<Float> {
        precondition(count + skip <= capacity)
        return UnsafePointer(storage + writeIndex + capacity - count - skip)
    }

    func reset() {
        storage.update(repeating: 0, count: 2 * capacity)
        writeIndex = 0
    }
}
