import Foundation

/// TTML time expressions: clock times `hh:mm:ss(.fff)`, `hh:mm:ss:ff` (frames), Apple's
/// `m:ss.fff` and bare seconds, and offset times `1.5s`, `1500ms`, `2m`, `1h`, `25f`, `1000t`.
enum TTMLTimeExpression {
    struct Rates {
        var frameRate = 30.0
        var tickRate = 1.0

        init() {}

        init(attributes: [String: String]) {
            if let f = attributes["ttp:frameRate"].flatMap(Double.init), f > 0 { frameRate = f }
            if let t = attributes["ttp:tickRate"].flatMap(Double.init), t > 0 { tickRate = t } else if attributes["ttp:frameRate"] != nil { tickRate = frameRate }
        }
    }

    /// Seconds, nil for what is not a time or beyond 10⁷ s (four months: not a song).
    static func seconds(_ raw: String, rates: Rates = Rates()) -> Double? {
        guard let value = parse(raw, rates: rates), value.isFinite, value < 1e7 else { return nil }
        return value
    }

    private static func parse(_ raw: String, rates: Rates) -> Double? {
        let s = raw.trimmingCharacters(in: .whitespaces)
        guard !s.isEmpty, s.count < 32 else { return nil }
        for (suffix, scale) in [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1), ("f", 1 / rates.frameRate), ("t", 1 / rates.tickRate)]
        where s.hasSuffix(suffix) {
            guard let n = Double(s.dropLast(suffix.count)), n.isFinite, n >= 0 else { return nil }
            return n * scale
        }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [Double] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let n = Double(part) else { return nil }
            numbers.append(n)
        }
        switch numbers.count {
        case 1: return numbers[0]
        case 2: return numbers[0] * 60 + numbers[1]
        case 3: return numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
        default: return numbers[0] * 3600 + numbers[1] * 60 + numbers[2] + numbers[3] / rates.frameRate
        }
    }
}
