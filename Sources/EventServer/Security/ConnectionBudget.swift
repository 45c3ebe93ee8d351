/// Open connections (HTTP and WebSocket) per client address, so that no address — and no
/// crowd of them — can take every file descriptor.
///
/// An address at `perAddress` connections gets no more. When the server as a whole is at
/// `total`, a new connection is still accepted and an older one is closed to make room: the
/// oldest that has not become a WebSocket (idle or slow handshakes), else the oldest
/// WebSocket of the address holding the most connections.
public struct ConnectionBudget: Sendable {
    public struct Limits: Sendable, Equatable {
        public var perAddress: Int
        public var total: Int
        public init(perAddress: Int = 32, total: Int = 1024) {
            self.perAddress = perAddress
            self.total = max(2, total)
        }
    }

    public enum Admission: Sendable, Equatable {
        case accept
        /// Accept, and close this connection to make room.
        case acceptEvicting(Int)
        case refuse
    }

    struct Entry: Sendable {
        var address: String
        var since: Double
        var webSocket = false
    }

    public let limits: Limits
    private var entries: [Int: Entry] = [:]
    private var perAddress: [String: Int] = [:]
    /// Connections already chosen to be closed (they stay counted until they are gone).
    private var evicting: Set<Int> = []

    public init(limits: Limits) { self.limits = limits }

    public var count: Int { entries.count }
    public func count(of address: String) -> Int { perAddress[address] ?? 0 }

    /// `descriptorsLow`: the process is close to its open-file limit (connections being sent a
    /// file hold two descriptors), so make room as if the budget were full.
    public mutating func admit(_ address: String, descriptorsLow: Bool = false) -> Admission {
        if count(of: address) >= limits.perAddress { return .refuse }
        guard descriptorsLow || entries.count - evicting.count >= limits.total else { return .accept }
        guard let victim = victim() else { return .refuse }
        evicting.insert(victim)
        return .acceptEvicting(victim)
    }

    /// Chooses up to `count` connections to close when the process ran out of descriptors
    /// (an `accept` failed): the same order as for a full budget.
    public mutating func makeRoom(_ count: Int) -> [Int] {
        var victims: [Int] = []
        while victims.count < count, let victim = victim() {
            evicting.insert(victim)
            victims.append(victim)
        }
        return victims
    }

    public mutating func add(_ key: Int, address: String, now: Double) {
        if let old = entries[key] { release(old.address) }
        entries[key] = Entry(address: address, since: now)
        perAddress[address, default: 0] += 1
    }

    public mutating func markWebSocket(_ key: Int) { entries[key]?.webSocket = true }

    public func address(of key: Int) -> String? { entries[key]?.address }

    public mutating func remove(_ key: Int) {
        evicting.remove(key)
        guard let entry = entries.removeValue(forKey: key) else { return }
        release(entry.address)
    }

    private mutating func release(_ address: String) {
        let left = (perAddress[address] ?? 1) - 1
        perAddress[address] = left > 0 ? left : nil
    }

    private func victim() -> Int? {
        let candidates = entries.filter { !evicting.contains($0.key) }
        if let idle = candidates.filter({ !$0.value.webSocket }).min(by: { $0.value.since < $1.value.since }) {
            return idle.key
        }
        guard let heaviest = perAddress.max(by: { $0.value < $1.value })?.key else { return nil }
        return candidates.filter { $0.value.address == heaviest }.min(by: { $0.value.since < $1.value.since })?.key
            ?? candidates.min(by: { $0.value.since < $1.value.since })?.key
    }
}
