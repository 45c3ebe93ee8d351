import Synchronization

/// Work handed to the service thread by any other thread. Appending never blocks for
/// long (a short mutex section) and is followed by `lws_cancel_service`.
enum PendingWork: Sendable {
    case broadcast(OutboundMessage)
    case send(OutboundMessage, to: ClientID)
    case close(ClientID, status: UInt16, reason: String)
}

final class PendingWorkQueue: Sendable {
    private let items = Mutex<[PendingWork]>([])

    func append(_ work: PendingWork) {
        items.withLock { $0.append(work) }
    }

    /// All at once: the service thread drains them together, so each client gets them in one pass.
    func append(contentsOf work: [PendingWork]) {
        items.withLock { $0.append(contentsOf: work) }
    }

    func drain() -> [PendingWork] {
        items.withLock { items in
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }
}
