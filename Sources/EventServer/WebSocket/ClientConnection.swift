import CWebSockets

/// Service-thread state of one WebSocket client. Never touched off the service thread.
final class ClientConnection {
    let id: ClientID
    let wsi: OpaquePointer
    var queue: OutboundQueue
    var rateLimiter: RateLimiter
    /// Fragments of the message being received.
    var inbound: [UInt8] = []
    /// Set when the server asked to close it; sent at the next writeable callback.
    var pendingClose: (status: UInt16, reason: String)?
    /// Set by the first message addressed to this client (the room's `hello`). Broadcasts reach
    /// it only from then on: one that raced ahead of the hello would be the client's first
    /// message, an update to a state it has not been given.
    var greeted = false
    /// True once `lws_callback_on_writable` was requested and not yet served.
    var writeRequested = false
    /// When the client was last told its address is over the shared limit.
    var addressReported = -Double.infinity
    /// Audio frames refused in a row (no phone seat), and when the client was last told.
    var refusedAudioFrames = 0
    var audioRefusalReported = -Double.infinity
    /// The status of the close frame the client sent (1005 when it carried none); nil while it
    /// sent none (a connection that drops ends without one).
    var peerCloseStatus: UInt16?

    init(id: ClientID, wsi: OpaquePointer, queueLimits: OutboundQueue.Limits, rateLimiter: RateLimiter) {
        self.id = id
        self.wsi = wsi
        self.queue = OutboundQueue(limits: queueLimits)
        self.rateLimiter = rateLimiter
    }
}
