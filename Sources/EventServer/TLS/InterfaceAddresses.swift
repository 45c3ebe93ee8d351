#if canImport(Glibc)
import Glibc
#endif

/// The machine's own numeric addresses, for certificate names, the banner and the join URL.
public enum InterfaceAddresses {
    public struct Address: Sendable, Equatable {
        public let text: String
        public let isIPv6: Bool
        public let isLoopback: Bool
        /// IPv6 link-local (`fe80::`): only meaningful with a zone, so useless in a URL or certificate.
        public let isLinkLocal: Bool

        public init(text: String, isIPv6: Bool, isLoopback: Bool, isLinkLocal: Bool) {
            self.text = text
            self.isIPv6 = isIPv6
            self.isLoopback = isLoopback
            self.isLinkLocal = isLinkLocal
        }
    }

    /// Every IPv4 and IPv6 address of every interface that is up, in the kernel's order.
    public static func current() -> [Address] {
        var result: [Address] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return result }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
            let lower = text.lowercased()
            let entryValue = Address(
                text: text, isIPv6: family == AF_INET6,
                isLoopback: text.hasPrefix("127.") || lower == "::1",
                isLinkLocal: family == AF_INET6 && lower.hasPrefix("fe80:"))
            if !result.contains(entryValue) { result.append(entryValue) }
        }
        return result
    }

    /// The machine's host name (`gethostname`), or nil.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
