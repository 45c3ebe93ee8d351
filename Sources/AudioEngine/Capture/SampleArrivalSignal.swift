import Dispatch
import Synchronization

/// Wakes a capture ring's reader when its producer has written: the pitch worker waits on it
/// instead of sleeping a fixed poll interval, so a phone frame is analysed when it arrives,
/// not up to 10 ms later (docs/phone-mics.md, "Glass-to-event").
///
/// `signal` never blocks and never allocates (an atomic exchange and, at most once per wait, a
/// semaphore post): safe on the WebSocket service thread or an audio callback. Signals between
/// two waits coalesce into one wake-up, so a burst of frames costs the reader one step.
public final class SampleArrivalSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let pending = Atomic<Bool>(false)

    public init() {}

    /// Producer side: new samples are in the ring (call after writing them).
    public func signal() {
        if !pending.exchange(true, ordering: .acquiringAndReleasing) { semaphore.signal() }
    }

    /// Reader side: waits until `signal` or for `seconds`; true when signalled. Signals that came
    /// while the reader was busy wake it at once.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        let woken = semaphore.wait(timeout: .now() + .nanoseconds(Int(max(seconds, 0) * 1e9))) == .success
        // Cleared after the wait: a signal from now on posts again, so no write goes unnoticed.
        pending.store(false, ordering: .releasing)
        return woken
    }
}
