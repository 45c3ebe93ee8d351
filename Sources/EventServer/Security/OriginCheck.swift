import Foundation

/// Decides whether a WebSocket handshake's `Origin` may talk to this server.
///
/// Browsers always send `Origin`; a page served by this server has the same host:port as
/// the request's `Host` header. Other origins must be listed explicitly. Requests with no
/// `Origin` come from non-browser tools (which CSRF cannot forge) and are allowed.
public struct OriginCheck: Sendable {
    private let allowed: Set<String>

    public init(allowedOrigins: [String]) {
        allowed = Set(allowedOrigins.map { Self.normalise($0) })
    }

    public func accepts(origin: String?, host: String?) -> Bool {
        guard let origin, !origin.isEmpty else { return true }
        let normalised = Self.normalise(origin)
        if allowed.contains(normalised) { return true }
        guard let host, !host.isEmpty else { return false }
        guard let originHost = Self.authority(of: normalised) else { return false }
        return originHost == host.lowercased()
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
