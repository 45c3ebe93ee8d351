/// One client's pending messages, bounded so a slow client costs bounded memory and
/// never delays the others.
///
/// Above `softLimit` the oldest droppable message is discarded to make room (or the new
/// one, if it is droppable and nothing older is). Essential messages are never dropped;
/// when they alone exceed `hardLimit` the client cannot keep up and must be disconnected.
public struct OutboundQueue: Sendable {
    public struct Limits: Sendable, Equatable {
        public var softLimit: Int
        public var hardLimit: Int
        public init(softLimit: Int = 256, hardLimit: Int = 2048) {
            self.softLimit = softLimit
            self.hardLimit = max(hardLimit, softLimit)
        }
    }

    public enum EnqueueResult: Sendable, Equatable {
        case queued
        /// Queued after dropping this many older droppable messages (or dropped the new one).
        case droppedDroppable(Int)
        /// Essential backlog exceeds the hard limit: disconnect this client.
        case overflow
    }

    public let limits: Limits
    private var storage: [OutboundMessage] = []
    private var head = 0
    public private(set) var droppedCount = 0

    public init(limits: Limits = .init()) { self.limits = limits }

    public var count: Int { storage.count - head }
    public var isEmpty: Bool { count == 0 }

    public mutating func enqueue(_ message: OutboundMessage) -> EnqueueResult {
        guard count >= limits.softLimit else {
            storage.append(message)
            return .queued
        }
        if let oldest = storage[head...].firstIndex(where: { $0.delivery == .droppable }) {
            storage.remove(at: oldest)
            storage.append(message)
            droppedCount += 1
            return .droppedDroppable(1)
        }
        if message.delivery == .droppable {
            droppedCount += 1
            return .droppedDroppable(1)
        }
        if count >= limits.hardLimit { return .overflow }
        storage.append(message)
        return .queued
    }

    /// The message `offset` places behind the next one `dequeue` returns (0: that one).
    public func peek(_ offset: Int = 0) -> OutboundMessage? {
        head + offset < storage.count ? storage[head + offset] : nil
    }

    public mutating func dequeue() -> OutboundMessage? {
        guard head < storage.count else { return nil }
        let message = storage[head]
        head += 1
        if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return message
    }
}
