/// The names a certificate is valid for (its subjectAltName): host names and IP addresses.
public struct CertificateNames: Sendable, Equatable {
    public private(set) var dnsNames: [String] = []
    public private(set) var ipAddresses: [String] = []

    /// More than this many names and a certificate grows without bound as addresses come and go.
    static let limit = 48

    public init(dnsNames: [String] = [], ipAddresses: [String] = []) {
        for name in dnsNames { add(name) }
        for address in ipAddresses { add(address) }
    }

    /// `localhost`, the loopback addresses, the host name (also short and `.local`), every
    /// address of the machine's interfaces except IPv6 link-local ones, and `extra` (`--allow-host`).
    public static func forThisMachine(extra: [String] = []) -> CertificateNames {
        var names = CertificateNames(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"])
        if let host = InterfaceAddresses.hostName() {
            names.add(host)
            let short = host.split(separator: ".").first.map(String.init) ?? host
            names.add(short)
            names.add(short + ".local")
        }
        for address in InterfaceAddresses.current() where !address.isLinkLocal { names.add(address.text) }
        for name in extra { names.add(name) }
        return names
    }

    /// Adds a host name or IP address; names a certificate cannot hold (wildcards, spaces,
    /// anything but letters, digits, `-` and `.`) are skipped.
    public mutating func add(_ raw: String) {
        let name = HostAllowList.normalise(raw)
        guard !name.isEmpty, dnsNames.count + ipAddresses.count < Self.limit else { return }
        if HostAllowList.isAddress(name) {
            if !ipAddresses.contains(name) { ipAddresses.append(name) }
        } else if name.count <= 253, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }),
                  !name.hasPrefix("."), !name.hasPrefix("-") {
            if !dnsNames.contains(name) { dnsNames.append(name) }
        }
    }

    /// Names of `other` that are not in this set.
    public func missing(from other: CertificateNames) -> [String] {
        other.dnsNames.filter { !dnsNames.contains($0) } + other.ipAddresses.filter { !ipAddresses.contains($0) }
    }

    public func union(_ other: CertificateNames) -> CertificateNames {
        var result = self
        for name in other.dnsNames + other.ipAddresses { result.add(name) }
        return result
    }

    /// OpenSSL's subjectAltName configuration value: `DNS:localhost,IP:127.0.0.1,…`.
    var openSSLValue: String {
        (dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }).joined(separator: ",")
    }

    public var all: [String] { dnsNames + ipAddresses }
}
