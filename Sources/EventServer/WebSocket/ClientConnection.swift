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
    /// True once `lws_callback_on_writable` was requested and not yet served.
    var writeRequested = false
    /// When the client was last told its address is over the shared limit.
    var addressReported = -Double.infinity
    /// Audio frames refused in a row (no phone seat), and when the client was last told.
    var refusedAudioFrames = 0
    var audioRefusalReported = -Double.infinity

    init(id: ClientID, wsi: OpaquePointer, queueLimits: OutboundQueue.Limits, rateLimiter: RateLimiter) {
        self.id = id
        self.wsi = wsi
        self.queue = OutboundQueue(limits: queueLimits)
        self.rateLimiter = rateLimiter
    }
}
