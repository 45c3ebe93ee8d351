/// Host sessions: a random token handed to a browser that proved the PIN, so it can take the
/// host role again after a reconnect (or a reload) without sending the PIN. Tokens expire.
public struct HostSessions: Sendable {
    public let lifetime: Double
    public let capacity: Int
    /// Token → expiry (monotonic seconds).
    private var tokens: [String: Double] = [:]

    public init(lifetime: Double = 12 * 3600, capacity: Int = 64) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// A fresh 128-bit token from the system's CSPRNG, valid for `lifetime` seconds.
    public mutating func issue(now: Double) -> String {
        tokens = tokens.filter { $0.value > now }
        if tokens.count >= capacity, let oldest = tokens.min(by: { $0.value < $1.value }) { tokens[oldest.key] = nil }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        tokens[token] = now + lifetime
        return token
    }

    public func isValid(_ token: String?, now: Double) -> Bool {
        guard let token, token.utf8.count == 32, let expiry = tokens[token] else { return false }
        return expiry > now
    }

    public mutating func revoke(_ token: String) { tokens[token] = nil }

    /// Ends every session but `kept` (the host who asked); returns how many ended.
    @discardableResult
    public mutating func revokeAll(except kept: String?) -> Int {
        let before = tokens.count
        tokens = tokens.filter { $0.key == kept }
        return before - tokens.count
    }
}
