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
