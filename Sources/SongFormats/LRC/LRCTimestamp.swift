import Foundation

/// `mm:ss.xx`, `mm:ss.xxx`, `mm:ss`, `hh:mm:ss.xx` and the FLO variant `mm:ss:mss` (fraction
/// after a colon).
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
        // hh:mm:ss.xx — some editors write hours; the fraction after a dot tells it from FLO's mm:ss:mss.
        let hours = parts.count == 3 && parts[2].contains(".") ? parts[0].trimmed : nil
        let clock = hours == nil ? parts[...] : parts.dropFirst()
        guard var minutes = digits(clock.first!.trimmed, max: 4) else { return nil }
        if let hours {
            guard let h = digits(hours, max: 2), minutes < 60 else { return nil }
            minutes += 60 * h
        }
        var secondsPart = clock[clock.startIndex + 1].trimmed
        var fraction: Substring = ""
        colonFraction = clock.count == 3
        if colonFraction {
            fraction = clock[clock.startIndex + 2].trimmed
        } else if let dot = secondsPart.firstIndex(where: { $0 == "." || $0 == "," }) {
            fraction = secondsPart[secondsPart.index(after: dot)...]
            secondsPart = secondsPart[..<dot]
        }
        guard let secs = digits(secondsPart, max: 2) else { return nil }
        secondsOverflow = secs >= 60
        var fractionSeconds = 0.0
        if !fraction.isEmpty || colonFraction {
            // Up to microseconds: some tools write `[00:12.3456]`.
            guard let f = digits(fraction, max: colonFraction ? 3 : 6) else { return nil }
            fractionSeconds = Double(f) / pow(10, Double(fraction.count))
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
