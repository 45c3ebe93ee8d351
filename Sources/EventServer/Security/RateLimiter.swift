/// Token bucket per client: `perSecond` sustained, `burst` at once.
public struct RateLimiter: Sendable {
    public struct Limits: Sendable, Equatable {
        public var perSecond: Double
        public var burst: Double
        /// Consecutive rejected messages after which the client is disconnected.
        public var disconnectAfter: Int
        public init(perSecond: Double = 30, burst: Double = 60, disconnectAfter: Int = 200) {
            self.perSecond = perSecond
            self.burst = burst
            self.disconnectAfter = disconnectAfter
        }
    }

    public enum Decision: Sendable, Equatable { case allow, reject, disconnect }

    private let limits: Limits
    private var tokens: Double
    private var last: Double
    private var rejectedInARow = 0

    public init(limits: Limits, now: Double) {
        self.limits = limits
        self.tokens = limits.burst
        self.last = now
    }

    /// `now` in seconds on a monotonic clock.
    public mutating func admit(now: Double) -> Decision {
        tokens = min(limits.burst, tokens + max(0, now - last) * limits.perSecond)
        last = now
        if tokens >= 1 {
            tokens -= 1
            rejectedInARow = 0
            return .allow
        }
        rejectedInARow += 1
        return rejectedInARow >= limits.disconnectAfter ? .disconnect : .reject
    }
}
