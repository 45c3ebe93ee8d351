/// An encoded text frame, shared by every client queue it is sent to (encoded once).
public final class OutboundMessage: Sendable {
    /// How the queue treats the message when a client falls behind.
    public enum Delivery: Sendable {
        /// Superseded by the next one (live pitch frames): dropped first, oldest first.
        case droppable
        /// Must arrive (state, line scores, totals, errors): never dropped.
        case essential
    }

    public let bytes: [UInt8]
    public let delivery: Delivery
    /// Monotonic seconds when the message was made, for the delivery-delay histogram.
    public let createdAt: Double

    public init(bytes: [UInt8], delivery: Delivery) {
        self.bytes = bytes
        self.delivery = delivery
        self.createdAt = MonotonicClock.now()
    }

    public convenience init(text: String, delivery: Delivery = .essential) {
        self.init(bytes: Array(text.utf8), delivery: delivery)
    }
}
