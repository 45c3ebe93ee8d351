/// Splits text into lines at CR, LF or CRLF, keeping 1-based numbers for error messages.
enum TextLines {
    static func split(_ text: String) -> [Substring] {
        // Scans UTF-8 bytes: CR and LF are always grapheme boundaries, and byte scanning is
        // far cheaper than walking Characters.
        var lines: [Substring] = []
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        var i = utf8.startIndex
        while i < utf8.endIndex {
            let byte = utf8[i]
            if byte == 0x0A || byte == 0x0D {
                lines.append(text[lineStart..<i])
                var next = utf8.index(after: i)
                if byte == 0x0D, next < utf8.endIndex, utf8[next] == 0x0A { next = utf8.index(after: next) }
                lineStart = next
                i = next
            } else {
                i = utf8.index(after: i)
            }
        }
        lines.append(text[lineStart..<utf8.endIndex])
        return lines
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (and a stray BOM).
    var trimmed: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" || c == "\u{FEFF}" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}

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
