/// Time from an event's encoding to its hand-over to the client's socket (`lws_write`),
/// per client write. Fixed buckets, filled on the service thread without allocating:
/// 0.1 ms steps up to 100 ms, then 10 ms steps up to 10 s (the last bucket collects the rest).
public struct DeliveryHistogram: Sendable, Equatable {
    private static let fineBuckets = 1000     // 0…100 ms in 0.1 ms
    private static let coarseBuckets = 990    // 100 ms…10 s in 10 ms
    private var buckets = [Int](repeating: 0, count: fineBuckets + coarseBuckets)
    public private(set) var count = 0

    public init() {}

    public mutating func record(milliseconds: Double) {
        let ms = max(0, milliseconds)
        let index = ms < 100 ? Int(ms * 10) : min(buckets.count - 1, Self.fineBuckets + Int((ms - 100) / 10))
        buckets[index] += 1
        count += 1
    }

    /// Upper edge of the bucket holding the `q` quantile (0…1), in milliseconds.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let target = max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        for (index, n) in buckets.enumerated() {
            seen += n
            if seen >= target {
                return index < Self.fineBuckets ? Double(index + 1) / 10 : 100 + Double(index - Self.fineBuckets + 1) * 10
            }
        }
        return nil
    }
}
