#if canImport(Glibc)
import Glibc
#endif

/// The host names this server answers for. A browser sends the name it used in `Host` (and
/// a page's origin in `Origin`); a DNS-rebinding page reaches the server under a foreign name,
/// so requests for any other name get no page and no WebSocket. An IP address cannot be
/// rebound, so any IP-literal `Host` is accepted (the server behind a port forward or in a
/// container is reached by an address that is not its own).
public struct HostAllowList: Sendable, Equatable {
    public let names: Set<String>

    public init(names: [String]) {
        self.names = Set(names.map(Self.normalise).filter { !$0.isEmpty })
    }

    /// `localhost`, the loopback addresses, the listen address (every interface address when
    /// listening on all of them), the machine's host name (also `.local`), and `extra`.
    public static func reachableNames(listenHost: String?, extra: [String] = []) -> HostAllowList {
        var names = ["localhost", "127.0.0.1", "::1"] + extra
        if let listenHost, !["", "0.0.0.0", "::"].contains(listenHost) {
            names.append(listenHost)
        } else {
            names += InterfaceAddresses.current().map(\.text)
        }
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !host.isEmpty {
                names.append(host)
                let short = host.split(separator: ".").first.map(String.init) ?? host
                names += [short, short + ".local"]
            }
        }
        return HostAllowList(names: names)
    }

    /// Is a request's `Host` header (`name`, `name:port`, `[v6]:port`) one of ours? A request
    /// without one comes from a tool, not a browser, and is let through.
    public func accepts(hostHeader: String?) -> Bool {
        guard let hostHeader, !hostHeader.isEmpty else { return true }
        guard let name = Self.split(hostHeader)?.name else { return false }
        return names.contains(name) || Self.isAddress(name)
    }

    /// True for a numeric IPv4 or IPv6 address (not a name).
    static func isAddress(_ name: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    /// `Example.COM.:8080` → ("example.com", 8080); `[::1]:80` → ("::1", 80); nil for junk.
    static func split(_ authority: String) -> (name: String, port: Int?)? {
        let text = authority.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let name = normalise(String(text[text.index(after: text.startIndex)..<close]))
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        switch pieces.count {
        case 1: return (normalise(text), nil)
        case 2:
            guard let port = Int(pieces[1]) else { return nil }
            return (normalise(String(pieces[0])), port)
        default: return (normalise(text), nil)  // a bare IPv6 address
        }
    }

    static func normalise(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        while text.hasSuffix(".") { text.removeLast() }
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
        return text
    }
}
