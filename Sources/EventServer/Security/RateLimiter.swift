/// Token bucket: `perSecond` sustained, `burst` at once. Used per connection and per address.
///
/// Refused messages build up a debt that is forgiven at a third of the sustained rate; when it
/// reaches `disconnectAfter` the sender is flooding (it keeps sending well above the limit)
/// and is disconnected. A sender slightly over the limit only loses its extra messages.
public struct RateLimiter: Sendable {
    public struct Limits: Sendable, Equatable {
        public var perSecond: Double
        public var burst: Double
        /// Refused-message debt at which the client is disconnected.
        public var disconnectAfter: Int
        public init(perSecond: Double = 30, burst: Double = 60, disconnectAfter: Int = 100) {
            self.perSecond = perSecond
            self.burst = burst
            self.disconnectAfter = disconnectAfter
        }
    }

    public enum Decision: Sendable, Equatable {
        case allow
        /// Refused; tell the client (at most once a second).
        case reject
        /// Refused; the client was told less than a second ago.
        case rejectQuietly
        case disconnect
    }

    private let limits: Limits
    private var tokens: Double
    private var last: Double
    private var debt = 0.0
    private var lastReport = -Double.infinity

    public init(limits: Limits, now: Double) {
        self.limits = limits
        self.tokens = limits.burst
        self.last = now
    }

    /// `now` in seconds on a monotonic clock.
    public mutating func admit(now: Double) -> Decision {
        let elapsed = max(0, now - last)
        tokens = min(limits.burst, tokens + elapsed * limits.perSecond)
        debt = max(0, debt - elapsed * limits.perSecond / 3)
        last = now
        if tokens >= 1 {
            tokens -= 1
            return .allow
        }
        debt += 1
        if debt >= Double(limits.disconnectAfter) { return .disconnect }
        if now - lastReport >= 1 {
            lastReport = now
            return .reject
        }
        return .rejectQuietly
    }

    /// Takes back one token (the message was refused elsewhere and should not count here).
    public mutating func refund() { tokens = min(limits.burst, tokens + 1) }
}
