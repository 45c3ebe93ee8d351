/// The key per-address limits use for a peer: IPv4 as is (also when mapped into IPv6), IPv6
/// by its /64 prefix — one device can take any address of its /64, so the prefix is the
/// "address" an attacker cannot multiply.
public enum ClientAddress {
    public static func key(_ peer: String) -> String {
        var text = peer.lowercased()
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
        if text.hasPrefix("::ffff:"), text.contains(".") { return String(text.dropFirst(7)) }
        guard text.contains(":") else { return text }
        let expanded = expand(text)
        return expanded.prefix(4).joined(separator: ":") + "::/64"
    }

    /// Whether `peer` is this machine (127.0.0.0/8, `::1`, or either mapped into IPv6).
    public static func isLoopback(_ peer: String) -> Bool {
        var text = peer.lowercased()
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
        if text.hasPrefix("::ffff:"), text.contains(".") { text = String(text.dropFirst(7)) }
        guard text.contains(":") else { return text.hasPrefix("127.") }
        return expand(text) == ["0", "0", "0", "0", "0", "0", "0", "1"]
    }

    /// `fe80::1` → eight groups.
    private static func expand(_ text: String) -> [String] {
        let halves = text.components(separatedBy: "::")
        let head = halves[0].isEmpty ? [] : halves[0].split(separator: ":").map(String.init)
        let tail = halves.count > 1 && !halves[1].isEmpty ? halves[1].split(separator: ":").map(String.init) : []
        let zeros = Array(repeating: "0", count: max(0, 8 - head.count - tail.count))
        return (head + (halves.count > 1 ? zeros : []) + tail).map { group in
            let trimmed = group.drop { $0 == "0" }
            return trimmed.isEmpty ? "0" : String(trimmed)
        }
    }
}
