/// Everything the transport needs to know; nothing about songs or rooms.
public struct EventServerConfiguration: Sendable {
    /// Address to bind (`127.0.0.1`, `0.0.0.0`, `::`); `nil` binds every interface.
    public var host: String?
    /// TCP port; 0 lets the kernel choose (read it back from `EventServer.port`).
    public var port: Int
    /// Directory served over HTTP (absolute or relative to the working directory).
    public var publicDirectory: String
    /// Extra paths that serve a page of `publicDirectory`, e.g. `"/remote": "remote.html"`.
    public var pageRoutes: [String: String]
    /// Exact paths that serve one file from outside `publicDirectory`, e.g. `"/join.svg":
    /// "/tmp/karaoke-join-…/join.svg"` (files the server writes at start; lws answers the bare
    /// path with a redirect to `path/`, which serves the file).
    public var fileRoutes: [String: String] = [:]
    /// Mountpoints whose files the server makes (e.g. `"/cover"`: `/cover/<name>` asks the
    /// source for `<name>`); no part of such a path is ever opened as given.
    public var generatedRoutes: [String: any GeneratedFileSource] = [:]
    /// Song files served by token from `/media/…` with byte ranges (videos, CDG graphics).
    public var media = MediaFiles()
    /// Extensions lws does not know by default, e.g. `".webmanifest": "application/manifest+json"`.
    public var extraMimeTypes: [String: String]
    /// Seconds a browser may reuse a file before revalidating it with its ETag.
    public var cacheMaxAge: Int
    /// Browser origins accepted besides the server's own host (e.g. `http://tv.local:8080`).
    public var allowedOrigins: [String]
    /// Largest WebSocket message a client may send; bigger closes the connection (1009).
    public var maxInboundMessageBytes: Int
    /// Client messages per second (sustained) and burst.
    public var rateLimit: RateLimiter.Limits
    /// Per-client outbound queue bounds (see `OutboundQueue`).
    public var queueLimits: OutboundQueue.Limits
    /// Messages per second from one address over all its connections (several phones behind
    /// one NAT share it, so it is a few times the per-connection limit).
    public var addressRateLimit: RateLimiter.Limits
    /// Host names the server answers for; nil = `HostAllowList.reachableNames(listenHost: host)`.
    public var allowedHosts: HostAllowList?
    /// Open connections per address and in all; nil total = derived from the open-file limit.
    public var connectionsPerAddress: Int
    public var maxConnections: Int?
    /// Seconds a new connection may take to send its request or finish the WebSocket handshake.
    public var handshakeTimeout: Int
    /// An idle WebSocket is pinged after this many seconds and dropped if nothing answers
    /// within as many again (browsers answer pings by themselves).
    public var idlePingSeconds: Int
    /// HTTPS/WSS beside plain HTTP (nil: plain HTTP only).
    public var tls: TLSListener?

    public init(
        host: String? = "127.0.0.1", port: Int = 8080, publicDirectory: String = "public",
        pageRoutes: [String: String] = [:], extraMimeTypes: [String: String] = StaticMount.defaultExtraMimeTypes,
        cacheMaxAge: Int = 30, allowedOrigins: [String] = [], maxInboundMessageBytes: Int = 64 * 1024,
        rateLimit: RateLimiter.Limits = .init(), queueLimits: OutboundQueue.Limits = .init(),
        addressRateLimit: RateLimiter.Limits = .init(perSecond: 90, burst: 180, disconnectAfter: Int.max),
        allowedHosts: HostAllowList? = nil, connectionsPerAddress: Int = 32, maxConnections: Int? = nil,
        handshakeTimeout: Int = 10, idlePingSeconds: Int = 30, tls: TLSListener? = nil
    ) {
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
        self.pageRoutes = pageRoutes
        self.extraMimeTypes = extraMimeTypes
        self.cacheMaxAge = cacheMaxAge
        self.allowedOrigins = allowedOrigins
        self.maxInboundMessageBytes = maxInboundMessageBytes
        self.rateLimit = rateLimit
        self.queueLimits = queueLimits
        self.addressRateLimit = addressRateLimit
        self.allowedHosts = allowedHosts
        self.connectionsPerAddress = connectionsPerAddress
        self.maxConnections = maxConnections
        self.handshakeTimeout = handshakeTimeout
        self.idlePingSeconds = idlePingSeconds
        self.tls = tls
    }
}
