/// Identifies one WebSocket connection for the life of the server.
public typealias ClientID = UInt64

/// What the transport knows about a new connection.
public struct ClientInfo: Sendable, Equatable {
    public var id: ClientID
    public var peerAddress: String
    /// What per-address limits count by (`ClientAddress.key` of `peerAddress`).
    public var address: String
    public var origin: String?
    /// Whether the connection came in over TLS (the `--tls` port), where no one on the network
    /// can read what it carries.
    public var overTLS: Bool
    /// Whether the peer is this machine.
    public var isLoopback: Bool { ClientAddress.isLoopback(peerAddress) }

    public init(id: ClientID, peerAddress: String, origin: String? = nil, overTLS: Bool = false) {
        self.id = id
        self.peerAddress = peerAddress
        self.address = ClientAddress.key(peerAddress)
        self.origin = origin
        self.overTLS = overTLS
    }
}

/// Problems the transport detects itself and reports instead of delivering a message.
public enum TransportViolation: Sendable, Equatable {
    /// More messages than the rate limit allows; the message was discarded.
    case rateLimited
    /// A binary frame from a client that holds no phone singer seat (audio frames are the only
    /// binary frames; see `PhoneAudioFrame`). The frame was discarded.
    case binaryFrame
    /// Not valid UTF-8.
    case invalidText
}

/// Receives what clients do. Called on the lws service thread: implementations must
/// return quickly and never block (hand the work to their own queue).
public protocol EventServerDelegate: AnyObject, Sendable {
    func clientConnected(_ client: ClientInfo)
    func client(_ id: ClientID, sent text: String)
    func client(_ id: ClientID, violated violation: TransportViolation)
    func clientDisconnected(_ id: ClientID)
    /// The connection ended; `closeStatus` is the status of the close frame the client sent
    /// (1000 normal closure, 1001 going away: the page was closed or left; 1005: a frame without
    /// a status), nil when it ended without one (a dropped network, a killed browser). The
    /// default calls `clientDisconnected(_:)`.
    func clientDisconnected(_ id: ClientID, closeStatus: UInt16?)
    /// Where phone microphone audio frames go (read once, when the server starts); nil
    /// refuses every binary frame.
    var phoneAudio: PhoneAudioGate? { get }
}

extension EventServerDelegate {
    public var phoneAudio: PhoneAudioGate? { nil }
    public func clientDisconnected(_ id: ClientID, closeStatus: UInt16?) { clientDisconnected(id) }
}

/// Close statuses a client sends when it means to leave (RFC 6455 §7.4.1).
public enum WebSocketCloseStatus {
    public static let normal: UInt16 = 1000
    public static let goingAway: UInt16 = 1001

    /// A page closed, reloaded or navigated away (1001), or a client that said it is done (1000).
    public static func isLeaving(_ status: UInt16?) -> Bool { status == normal || status == goingAway }
}
