import EventServer

/// The room's upcoming songs, with ids that stay stable while items move.
public struct SongQueue: Sendable, Equatable {
    public private(set) var items: [QueueItemPayload] = []
    private var nextItemId = 1

    public init() {}

    public mutating func append(songId: String, title: String, artist: String, requestedBy: String?) -> QueueItemPayload {
        let item = QueueItemPayload(itemId: nextItemId, songId: songId, title: title, artist: artist, requestedBy: requestedBy)
        nextItemId += 1
        items.append(item)
        return item
    }

    @discardableResult
    public mutating func remove(itemId: Int) -> Bool {
        guard let index = items.firstIndex(where: { $0.itemId == itemId }) else { return false }
        items.remove(at: index)
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
        items.isEmpty ? nil : items.removeFirst()
    }
}
