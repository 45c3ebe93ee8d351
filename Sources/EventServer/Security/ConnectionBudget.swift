/// Open connections (HTTP and WebSocket) per client address, so that no address — and no
/// crowd of them — can take every file descriptor.
///
/// An address at `perAddress` connections gets no more. When the server as a whole is at
/// `total`, a new connection is still accepted and an older one is closed to make room: the
/// oldest that has not become a WebSocket (idle or slow handshakes), else the oldest
/// WebSocket of the address holding the most connections.
///
/// A connection being sent a file holds a second descriptor, so files count against `total`
/// too: an HTTP request may open one only while an address has fewer than `filesPerAddress`
/// and the server has descriptors to spare (`beginFile`). Without that, 700 slow readers
/// filled the process's open-file limit with their files, `accept` failed, and a new guest
/// waited seconds for lws to get round to it (docs/security.md).
public struct ConnectionBudget: Sendable {
    public struct Limits: Sendable, Equatable {
        public var perAddress: Int
        /// Descriptors for connections and the files they are being sent.
        public var total: Int
        /// Files being sent to one address at once. A browser loads 6 at a time per profile, and one
        /// address may be several browsers (the host machine running the singer view, the TV page
        /// and a remote; eight test phones on loopback): well under `perAddress`, well over 6.
        public var filesPerAddress: Int
        public init(perAddress: Int = 32, total: Int = 1024, filesPerAddress: Int = 24) {
            self.perAddress = perAddress
            self.total = max(2, total)
            self.filesPerAddress = max(1, filesPerAddress)
        }
    }

    public enum FileAdmission: Sendable, Equatable {
        case open
        /// This address already has `filesPerAddress` files in flight.
        case addressBusy
        /// The server has no descriptor to spare for a file.
        case serverBusy
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
        var sendingFile = false
    }

    public let limits: Limits
    private var entries: [Int: Entry] = [:]
    private var perAddress: [String: Int] = [:]
    private var filesPerAddress: [String: Int] = [:]
    private var files = 0
    /// Connections already chosen to be closed (they stay counted until they are gone).
    private var evicting: Set<Int> = []

    public init(limits: Limits) { self.limits = limits }

    public var count: Int { entries.count }
    public func count(of address: String) -> Int { perAddress[address] ?? 0 }
    public func files(of address: String) -> Int { filesPerAddress[address] ?? 0 }
    /// Descriptors held by connections and their files, counting those being closed.
    public var descriptors: Int { entries.count + files }

    /// Descriptors that will stay held: those of connections being closed are as good as free.
    private var descriptorsKept: Int {
        descriptors - evicting.reduce(0) { $0 + 1 + (entries[$1]?.sendingFile == true ? 1 : 0) }
    }

    /// `descriptorsLow`: the process is close to its open-file limit (connections being sent a
    /// file hold two descriptors), so make room as if the budget were full.
    public mutating func admit(_ address: String, descriptorsLow: Bool = false) -> Admission {
        if count(of: address) >= limits.perAddress { return .refuse }
        guard descriptorsLow || descriptorsKept >= limits.total else { return .accept }
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
        if entries[key] != nil { remove(key) }
        entries[key] = Entry(address: address, since: now)
        perAddress[address, default: 0] += 1
    }

    public mutating func markWebSocket(_ key: Int) {
        endFile(key)
        entries[key]?.webSocket = true
    }

    /// An HTTP request on `key` may open a file to answer it. A request refused here is
    /// answered without one (503), so a greedy address or a crowd cannot take the
    /// descriptors a new connection needs.
    public mutating func beginFile(_ key: Int) -> FileAdmission {
        guard let entry = entries[key] else { return .serverBusy }
        if entry.sendingFile { return .open }
        if files(of: entry.address) >= limits.filesPerAddress { return .addressBusy }
        if descriptorsKept >= limits.total { return .serverBusy }
        entries[key]?.sendingFile = true
        filesPerAddress[entry.address, default: 0] += 1
        files += 1
        return .open
    }

    /// The file sent on `key` is complete or closed.
    public mutating func endFile(_ key: Int) {
        guard let entry = entries[key], entry.sendingFile else { return }
        entries[key]?.sendingFile = false
        releaseFile(entry.address)
    }

    public func address(of key: Int) -> String? { entries[key]?.address }

    public mutating func remove(_ key: Int) {
        evicting.remove(key)
        endFile(key)
        guard let entry = entries.removeValue(forKey: key) else { return }
        release(entry.address)
    }

    private mutating func releaseFile(_ address: String) {
        files -= 1
        let left = (filesPerAddress[address] ?? 1) - 1
        filesPerAddress[address] = left > 0 ? left : nil
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
