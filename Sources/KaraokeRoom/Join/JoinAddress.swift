import EventServer

/// The one address guests are told to open: the start-up banner prints it and a join QR code
/// encodes it. With TLS on it is the HTTPS address (a phone's browser allows the microphone only
/// in a secure context); otherwise plain HTTP. Every place that shows a join link takes it from
/// here, so the choice is made once.
public struct JoinAddress: Sendable, Equatable {
    public let scheme: String
    /// A host name or numeric address (IPv6 without brackets).
    public let host: String
    public let port: Int

    /// The page a guest's phone opens first.
    public static let guestPage = "/remote"

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `https://192.168.1.20:8443`
    public var origin: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// `https://192.168.1.20:8443/remote`
    public var url: String { origin + Self.guestPage }

    /// Picks the address: the TLS port when there is one; the host a guest can reach —
    /// `preferredName` (a name given with `--allow-host`, which a host's own certificate
    /// names), else the listen address when it is a specific one, else the machine's first
    /// LAN address (IPv4 before IPv6), else loopback.
    public static func choose(listenHost: String, plainPort: Int, tlsPort: Int?, preferredName: String? = nil,
                              addresses: [InterfaceAddresses.Address] = InterfaceAddresses.current()) -> JoinAddress {
        let scheme = tlsPort == nil ? "http" : "https"
        let port = tlsPort ?? plainPort
        if let preferredName, !preferredName.isEmpty {
            return JoinAddress(scheme: scheme, host: preferredName, port: port)
        }
        if !["", "0.0.0.0", "::"].contains(listenHost) {
            return JoinAddress(scheme: scheme, host: listenHost, port: port)
        }
        let lan = addresses.filter { !$0.isLoopback && !$0.isLinkLocal }
        let pick = lan.first { !$0.isIPv6 } ?? lan.first
        return JoinAddress(scheme: scheme, host: pick?.text ?? "127.0.0.1", port: port)
    }
}
