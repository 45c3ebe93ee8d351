import EventServer

/// The room's upcoming songs, with ids that stay stable while items move, and who asked
/// for each (an address key, for the per-guest share).
public struct SongQueue: Sendable, Equatable {
    public private(set) var items: [QueueItemPayload] = []
    private var owners: [Int: String] = [:]
    private var nextItemId = 1

    public init() {}

    public mutating func append(songId: String, title: String, artist: String, requestedBy: String?,
                                owner: String? = nil) -> QueueItemPayload {
        let item = QueueItemPayload(itemId: nextItemId, songId: songId, title: title, artist: artist, requestedBy: requestedBy)
        nextItemId += 1
        items.append(item)
        if let owner { owners[item.itemId] = owner }
        return item
    }

    /// Songs `owner` has waiting.
    public func pending(of owner: String) -> Int { owners.values.reduce(0) { $0 + ($1 == owner ? 1 : 0) } }

    @discardableResult
    public mutating func remove(itemId: Int) -> Bool {
        guard let index = items.firstIndex(where: { $0.itemId == itemId }) else { return false }
        items.remove(at: index)
        owners[itemId] = nil
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
        return item
    }

    public mutating func removeAll() {
        items.removeAll()
        owners.removeAll()
    }
}
