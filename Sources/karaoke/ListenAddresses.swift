#if canImport(Glibc)
import Glibc
#endif

/// The URLs a browser can use to reach the server, for the start-up banner.
enum ListenAddresses {
    static func urls(host: String, port: Int, scheme: String = "http") -> [String] {
        guard host == "0.0.0.0" || host == "::" || host.isEmpty else {
            return ["\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"]
        }
        var result: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return ["\(scheme)://127.0.0.1:\(port)"] }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == UInt16(AF_INET) else { continue }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &buffer, socklen_t(buffer.count),
                              nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            result.append("\(scheme)://\(name):\(port)")
        }
        return result.isEmpty ? ["\(scheme)://127.0.0.1:\(port)"] : result
    }
}
