/// Numbers as song files write them: decimal point or comma, optional sign.
enum SongNumbers {
    /// Largest magnitude accepted for beats and milliseconds; keeps all arithmetic far from overflow.
    static let limit = 100_000_000

    static func decimal(_ raw: Substring) -> Double? {
        let s = raw.trimmed
        guard !s.isEmpty, s.count < 40 else { return nil }
        var sawDigit = false, sawPoint = false
        for (i, c) in s.enumerated() {
            if c.isASCII, c.isNumber { sawDigit = true; continue }
            if (c == "." || c == ",") && !sawPoint { sawPoint = true; continue }
            if (c == "-" || c == "+") && i == 0 { continue }
            return nil
        }
        guard sawDigit, let value = Double(s.replacingOccurrences(",", with: ".")), value.isFinite,
              abs(value) <= Double(limit) else { return nil }
        return value
    }

    static func integer(_ raw: Substring) -> Int? {
        let s = raw.trimmed
        guard !s.isEmpty, s.count < 12, let value = Int(s), abs(value) <= limit else { return nil }
        return value
    }
}

extension Substring {
    func replacingOccurrences(_ target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
