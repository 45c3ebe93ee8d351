import Foundation

/// Decides whether a request's `Origin` may talk to this server.
///
/// Browsers always send `Origin` on WebSocket handshakes; a page served by this server has
/// one of the server's own names (`HostAllowList`) and its port, or — reached by an IP
/// address, which cannot be rebound — exactly the request's `Host`. Other origins must be
/// listed explicitly (`--allow-origin`). A request's `Host` *name* is never trusted for this:
/// under DNS rebinding a foreign name is both the Host and the Origin. Requests with no `Origin`
/// come from non-browser tools (which a web page cannot forge) and are allowed.
public struct OriginCheck: Sendable {
    private let allowed: Set<String>
    private let hosts: HostAllowList
    private let port: Int

    public init(allowedOrigins: [String], hosts: HostAllowList, port: Int) {
        allowed = Set(allowedOrigins.map { Self.normalise($0) })
        self.hosts = hosts
        self.port = port
    }

    public func accepts(origin: String?, host: String? = nil) -> Bool {
        guard let origin, !origin.isEmpty else { return true }
        let normalised = Self.normalise(origin)
        if allowed.contains(normalised) { return true }
        if let host, let requested = HostAllowList.split(host), HostAllowList.isAddress(requested.name),
           let authority = Self.authority(of: normalised), let page = HostAllowList.split(authority),
           page.name == requested.name, page.port == requested.port {
            return true
        }
        guard let range = normalised.range(of: "://") else { return false }
        let scheme = normalised[..<range.lowerBound]
        guard scheme == "http" || scheme == "https", let authority = Self.authority(of: normalised),
              let (name, explicitPort) = HostAllowList.split(authority) else { return false }
        let originPort = explicitPort ?? (scheme == "https" ? 443 : 80)
        return originPort == port && hosts.names.contains(name)
    }

    /// `http://Example.com:8080/` → `http://example.com:8080`
    static func normalise(_ origin: String) -> String {
        var s = origin.trimmingCharacters(in: .whitespaces).lowercased()
        while s.hasSuffix("/") { s.removeLast() }
        return s
    }

    /// The `host[:port]` part of `scheme://host[:port]`, or nil for `null` and junk.
    static func authority(of origin: String) -> String? {
        guard let range = origin.range(of: "://") else { return nil }
        let rest = origin[range.upperBound...]
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        return String(rest)
    }
}
