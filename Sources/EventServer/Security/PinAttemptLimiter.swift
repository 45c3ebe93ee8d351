/// Limits host-PIN guesses per client address, across connections.
///
/// The first `freeAttempts` wrong PINs are evaluated at once (typos happen); after that each
/// further attempt must wait a back-off that doubles with every failure, up to `maxDelay`.
/// Attempts made during the back-off are refused without being evaluated. An address's
/// record is forgotten after `forgetAfter` seconds without a failure, or on success.
public struct PinAttemptLimiter: Sendable {
    public struct Limits: Sendable, Equatable {
        public var freeAttempts: Int
        public var baseDelay: Double
        public var maxDelay: Double
        public var forgetAfter: Double
        /// Addresses remembered at most (the oldest record is dropped beyond it).
        public var maxAddresses: Int
        public init(freeAttempts: Int = 5, baseDelay: Double = 1, maxDelay: Double = 60, forgetAfter: Double = 900,
                    maxAddresses: Int = 4096) {
            self.freeAttempts = freeAttempts
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
            self.forgetAfter = forgetAfter
            self.maxAddresses = maxAddresses
        }
    }

    public enum Decision: Sendable, Equatable {
        case evaluate
        /// Refused unevaluated: try again after this many seconds.
        case wait(Double)
    }

    private struct Record: Sendable {
        var failures: Int
        var lastFailure: Double
        var notBefore: Double
    }

    public let limits: Limits
    private var records: [String: Record] = [:]

    public init(limits: Limits = .init()) { self.limits = limits }

    /// May a PIN from `address` be checked now?
    public mutating func check(_ address: String, now: Double) -> Decision {
        guard let record = current(address, now: now) else { return .evaluate }
        return now >= record.notBefore ? .evaluate : .wait(record.notBefore - now)
    }

    /// A wrong PIN from `address`; returns the wait before its next attempt (0 while free).
    @discardableResult
    public mutating func recordFailure(_ address: String, now: Double) -> Double {
        var record = current(address, now: now) ?? Record(failures: 0, lastFailure: now, notBefore: now)
        record.failures += 1
        record.lastFailure = now
        let over = record.failures - limits.freeAttempts
        let delay = over < 0 ? 0 : min(limits.maxDelay, limits.baseDelay * Double(1 << min(over, 30)))
        record.notBefore = now + delay
        if records[address] == nil, records.count >= limits.maxAddresses, let oldest = records.min(by: { $0.value.lastFailure < $1.value.lastFailure }) {
            records[oldest.key] = nil
        }
        records[address] = record
        return delay
    }

    public mutating func recordSuccess(_ address: String) { records[address] = nil }

    /// Wrong PINs counted for `address` (for logs and tests).
    public func failures(of address: String) -> Int { records[address]?.failures ?? 0 }

    private mutating func current(_ address: String, now: Double) -> Record? {
        guard let record = records[address] else { return nil }
        if now - record.lastFailure > limits.forgetAfter, now >= record.notBefore {
            records[address] = nil
            return nil
        }
        return record
    }
}
