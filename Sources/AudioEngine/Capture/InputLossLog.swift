import Synchronization

/// When a capture source was lost (gone, moved to another source, suspended), in `HostClock`
/// seconds, so the scoring side can tell which lines were sung without a microphone. Touched on
/// device events and when a line closes, never from the audio callback.
public final class InputLossLog: Sendable {
    private struct State {
        var lostSince: Double?
        var spans: [(start: Double, end: Double)] = []
    }
    private let state = Mutex(State())
    /// Spans kept (a flapping cable must not grow memory without bound).
    private static let keep = 256

    public init() {}

    /// Marks the source lost at `time`; false when it already was.
    @discardableResult
    public func markLost(at time: Double) -> Bool {
        state.withLock { state in
            guard state.lostSince == nil else { return false }
            state.lostSince = time
            return true
        }
    }

    /// Marks the source back at `time`; false when it was not lost.
    @discardableResult
    public func markRestored(at time: Double) -> Bool {
        state.withLock { state in
            guard let since = state.lostSince else { return false }
            state.lostSince = nil
            state.spans.append((since, time))
            if state.spans.count > Self.keep { state.spans.removeFirst(state.spans.count - Self.keep) }
            return true
        }
    }

    public var isLost: Bool { state.withLock { $0.lostSince != nil } }

    /// How many closed lost spans are kept and how long they last together (seconds), for a log.
    public var closedSpans: (count: Int, seconds: Double) {
        state.withLock { state in (state.spans.count, state.spans.reduce(0) { $0 + max(0, $1.end - $1.start) }) }
    }

    /// Whether the source was lost at any moment between `start` and `end` (host seconds).
    public func wasLost(from start: Double, to end: Double) -> Bool {
        state.withLock { state in
            if let since = state.lostSince, since <= end { return true }
            return state.spans.contains { $0.start <= end && $0.end >= start }
        }
    }
}
