/// Keeps a flood from flooding the log: per kind of message, at most `burst` lines per
/// `window` seconds; the rest are counted and summarised when the next window opens.
public struct LogThrottle: Sendable {
    public let burst: Int
    public let window: Double
    private var windows: [String: (start: Double, logged: Int, suppressed: Int)] = [:]

    public init(burst: Int = 5, window: Double = 10) {
        self.burst = burst
        self.window = window
    }

    public enum Verdict: Sendable, Equatable {
        /// Log it; `suppressedBefore` lines of this kind were dropped in the previous window.
        case log(suppressedBefore: Int)
        case drop
    }

    public mutating func admit(_ kind: String, now: Double) -> Verdict {
        var state = windows[kind] ?? (now, 0, 0)
        var suppressedBefore = 0
        if now - state.start >= window {
            suppressedBefore = state.suppressed
            state = (now, 0, 0)
        }
        defer { windows[kind] = state }
        if state.logged < burst {
            state.logged += 1
            return .log(suppressedBefore: suppressedBefore)
        }
        state.suppressed += 1
        return .drop
    }
}
