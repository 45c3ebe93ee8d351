import Logging
import Synchronization

public enum EventServerError: Error, Equatable, CustomStringConvertible {
    case cannotListen(host: String, port: Int)
    case cannotListenTLS(host: String, port: Int, certificate: String)
    case alreadyStarted

    public var description: String {
        switch self {
        case .cannotListen(let host, let port): "cannot listen on \(host):\(port) (address in use or not available?)"
        case .cannotListenTLS(let host, let port, let certificate):
            "cannot serve HTTPS on \(host):\(port) with \(certificate) (port in use, or libwebsockets refused the certificate or key)"
        case .alreadyStarted: "the event server is already running"
        }
    }
}

/// Counters for logs, tests and the load report.
public struct EventServerStatistics: Sendable, Equatable {
    public var connectedClients = 0
    public var totalConnections = 0
    public var droppedMessages = 0
    public var slowClientCloses = 0
    public var oversizeCloses = 0
    public var rateLimitedMessages = 0
    public var rateLimitCloses = 0
    public var rejectedOrigins = 0
    /// Requests refused for a `Host` that is not one of the server's names.
    public var rejectedHosts = 0
    /// HTTP paths that led outside `public/` (a symlink out of it).
    public var rejectedPaths = 0
    /// Connections refused because their address had too many, and closed to make room.
    public var refusedConnections = 0
    public var evictedConnections = 0
    /// HTTP requests answered 503 rather than opening a file (`ConnectionBudget.beginFile`).
    public var busyFileRefusals = 0
    /// Encode-to-socket delay of every message written to a client.
    public var deliveries = DeliveryHistogram()
    /// Socket writes of queued messages: one per writable pass, carrying every message queued
    /// together up to a bound (fewer than `deliveries.count`). Published with `deliveries`.
    public var messageWrites = 0
}

/// HTTP for `public/` plus WebSocket push on one port, and optionally HTTPS/WSS on a second (libwebsockets).
///
/// Thread-safe: `broadcast`, `send` and `close` may be called from any thread (never
/// from a real-time audio callback: they take a short mutex). They only queue the work
/// and wake the lws service thread.
public final class EventServer: Sendable {
    public let configuration: EventServerConfiguration
    private let logger: Logger
    private let loop = Mutex<EventLoopThread?>(nil)
    private let boundPort = Atomic<Int>(0)
    private let boundTLSPort = Atomic<Int>(0)

    public init(configuration: EventServerConfiguration, logger: Logger = Logger(label: "karaoke.events")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Starts listening; returns once the port is bound. `delegate` is kept until `stop()`.
    public func start(delegate: any EventServerDelegate) throws {
        try loop.withLock { current in
            guard current == nil else { throw EventServerError.alreadyStarted }
            let thread = EventLoopThread(configuration: configuration, delegate: delegate, logger: logger)
            let ports = try thread.start()
            boundPort.store(ports.plain, ordering: .releasing)
            boundTLSPort.store(ports.tls ?? 0, ordering: .releasing)
            current = thread
        }
    }

    /// The port actually bound (useful with `port: 0`).
    /// Where the room publishes song files for `/media/…`.
    public var media: MediaFiles { configuration.media }

    public var port: Int { boundPort.load(ordering: .acquiring) }
    /// The HTTPS/WSS port actually bound, nil without `configuration.tls`.
    public var tlsPort: Int? {
        let port = boundTLSPort.load(ordering: .acquiring)
        return port == 0 ? nil : port
    }

    public func broadcast(_ message: OutboundMessage) { submit(.broadcast(message)) }
    /// Several messages handed over together (one room tick's `line` and `state`): every
    /// client gets them in the same write pass, not the second one a whole fan-out later.
    public func broadcast(contentsOf messages: [OutboundMessage]) {
        guard !messages.isEmpty else { return }
        loop.withLock { $0 }?.submit(contentsOf: messages.map { .broadcast($0) })
    }
    public func send(_ message: OutboundMessage, to client: ClientID) { submit(.send(message, to: client)) }

    /// Closes one client after the messages already queued for it (WebSocket close code).
    public func close(_ client: ClientID, status: UInt16 = 1000, reason: String = "") {
        submit(.close(client, status: status, reason: reason))
    }

    public var statistics: EventServerStatistics {
        loop.withLock { $0?.statistics.withLock { $0 } } ?? lastStatistics.withLock { $0 }
    }
    /// Kept after `stop()` so the final figures can still be read.
    private let lastStatistics = Mutex(EventServerStatistics())

    /// Stops the service thread and frees the context. Idempotent.
    public func stop() {
        let thread = loop.withLock { current in defer { current = nil }; return current }
        thread?.stop()
        if let thread { lastStatistics.withLock { $0 = thread.statistics.withLock { $0 } } }
    }

    private func submit(_ work: PendingWork) {
        loop.withLock { $0 }?.submit(work)
    }
}
