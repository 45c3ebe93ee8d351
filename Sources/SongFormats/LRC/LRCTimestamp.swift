/// `mm:ss.xx`, `mm:ss.xxx`, `mm:ss` and the FLO variant `mm:ss:mss` (fraction after a colon).
struct LRCTimestamp {
    var seconds: Double
    /// True for the `mm:ss:mss` form.
    var colonFraction: Bool
    /// Seconds written as 60…99 (`[02:83.37]`): players carry them into the minutes.
    var secondsOverflow = false

    /// Parses the text between the brackets; nil when it is not a timestamp at all.
    init?(_ s: Substring) {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        func digits(_ p: Substring, max: Int) -> Int? {
            guard !p.isEmpty, p.count <= max, p.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(p)
        }
        guard let minutes = digits(parts[0].trimmed, max: 4) else { return nil }
        var secondsPart = parts[1].trimmed
        var fraction: Substring = ""
        colonFraction = parts.count == 3
        if colonFraction {
            fraction = parts[2].trimmed
        } else if let dot = secondsPart.firstIndex(where: { $0 == "." || $0 == "," }) {
            fraction = secondsPart[secondsPart.index(after: dot)...]
            secondsPart = secondsPart[..<dot]
        }
        guard let secs = digits(secondsPart, max: 2) else { return nil }
        secondsOverflow = secs >= 60
        var fractionSeconds = 0.0
        if !fraction.isEmpty || colonFraction {
            guard let f = digits(fraction, max: 3) else { return nil }
            fractionSeconds = Double(f) / [1, 10, 100, 1000][fraction.count]
        }
        seconds = Double(minutes * 60 + secs) + fractionSeconds
    }
}

extension LRCTimestamp {
    /// `m:ss.xx`, for messages.
    static func format(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let s = hundredths / 100
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + "\(s % 60)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }
}
