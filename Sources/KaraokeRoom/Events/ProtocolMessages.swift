import EventServer
import Foundation
import RoomProtocol

// The protocol encodes its events; the transport queues them. This is where one becomes the other.

extension ServerEvent {
    /// Live pitch frames are superseded by the next; everything else must arrive.
    public var delivery: OutboundMessage.Delivery { isDroppable ? .droppable : .essential }

    /// Encodes once; the result can be sent to any number of clients.
    public func message(sentAt unixMilliseconds: Double = Date().timeIntervalSince1970 * 1000) -> OutboundMessage {
        OutboundMessage(bytes: encoded(sentAt: unixMilliseconds), delivery: delivery)
    }
}

extension PhoneMicEvent {
    /// A phone page's own events must arrive (its seat, clock and calibration).
    public func message(sentAt unixMilliseconds: Double = Date().timeIntervalSince1970 * 1000) -> OutboundMessage {
        OutboundMessage(bytes: encoded(sentAt: unixMilliseconds), delivery: .essential)
    }
}
