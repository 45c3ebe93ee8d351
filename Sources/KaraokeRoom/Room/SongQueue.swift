import RoomProtocol

/// The room's upcoming songs, in play order, with ids that stay stable while items move.
/// Each item remembers its singer (the name the request carried, folded) and the address that
/// asked (for the per-guest cap).
///
/// Fair turns: a request goes in round-robin by singer — a singer's n-th waiting song is placed
/// after every other singer's n-th, so one guest's five requests do not play five in a row.
/// The host can still move anything anywhere (`move`); later requests are placed among the
/// order as it then stands.
public struct SongQueue: Sendable, Equatable {
    public private(set) var items: [QueueItemPayload] = []
    private var owners: [Int: String] = [:]
    private var singers: [Int: String] = [:]
    private var nextItemId = 1

    public init() {}

    /// The singer key of a name: trimmed, case folded; nil for no name.
    public static func singerKey(_ name: String?) -> String? {
        guard let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        return name.lowercased()
    }

    /// Appends at the end (no fairness): the host's own queueing, and songs put back.
    public mutating func append(songId: String, title: String, artist: String, requestedBy: String?,
                                owner: String? = nil, duration: Double? = nil) -> QueueItemPayload {
        let item = make(songId: songId, title: title, artist: artist, requestedBy: requestedBy, owner: owner, duration: duration)
        items.append(item)
        return item
    }

    /// Places a request at its fair place (see the type's comment) and returns it with its index.
    public mutating func insertFairly(songId: String, title: String, artist: String, requestedBy: String?,
                                      owner: String?, duration: Double?) -> (item: QueueItemPayload, index: Int) {
        let item = make(songId: songId, title: title, artist: artist, requestedBy: requestedBy, owner: owner, duration: duration)
        guard let singer = singers[item.itemId] else {
            items.append(item)
            return (item, items.count - 1)
        }
        let round = items.reduce(0) { $0 + (singers[$1.itemId] == singer ? 1 : 0) } + 1
        var seen: [String: Int] = [:]
        var index = items.count
        for (position, queued) in items.enumerated() {
            let key = singers[queued.itemId] ?? "\u{0}item\(queued.itemId)"
            seen[key, default: 0] += 1
            if seen[key]! > round {
                index = position
                break
            }
        }
        items.insert(item, at: index)
        return (item, index)
    }

    private mutating func make(songId: String, title: String, artist: String, requestedBy: String?, owner: String?,
                               duration: Double?) -> QueueItemPayload {
        var item = QueueItemPayload(itemId: nextItemId, songId: songId, title: title, artist: artist, requestedBy: requestedBy)
        item.duration = duration
        nextItemId += 1
        if let owner { owners[item.itemId] = owner }
        if let singer = Self.singerKey(requestedBy) { singers[item.itemId] = singer }
        return item
    }

    /// Songs `owner` (an address) has waiting; `unnamedOnly`: only requests without a singer name.
    public func pending(of owner: String, unnamedOnly: Bool = false) -> Int {
        owners.reduce(0) { $0 + ($1.value == owner && (!unnamedOnly || singers[$1.key] == nil) ? 1 : 0) }
    }

    /// Songs the singer (name, case folded) has waiting.
    public func pending(singer name: String) -> Int {
        let key = Self.singerKey(name)
        return singers.values.reduce(0) { $0 + ($1 == key ? 1 : 0) }
    }

    /// Where `songId` waits for this singer (same name, case folded), if it does.
    public func index(of songId: String, singer name: String?) -> Int? {
        let key = Self.singerKey(name)
        return items.firstIndex { $0.songId == songId && singers[$0.itemId] == key }
    }

    /// The singer key of a queued item.
    public func singer(of itemId: Int) -> String? { singers[itemId] }

    @discardableResult
    public mutating func remove(itemId: Int) -> Bool {
        guard let index = items.firstIndex(where: { $0.itemId == itemId }) else { return false }
        items.remove(at: index)
        owners[itemId] = nil
        singers[itemId] = nil
        return true
    }

    /// Moves an item to position `to` (clamped to the queue).
    @discardableResult
    public mutating func move(itemId: Int, to destination: Int) -> Bool {
        guard let index = items.firstIndex(where: { $0.itemId == itemId }) else { return false }
        let item = items.remove(at: index)
        items.insert(item, at: min(max(0, destination), items.count))
        return true
    }

    public mutating func popFirst() -> QueueItemPayload? {
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        owners[item.itemId] = nil
        singers[item.itemId] = nil
        return item
    }

    public mutating func removeAll() {
        items.removeAll()
        owners.removeAll()
        singers.removeAll()
    }
}
