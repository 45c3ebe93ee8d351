/// Reads whitespace-separated integers off the front of a line.
struct FieldScanner {
    var rest: Substring

    init(_ text: Substring) { rest = text }

    /// Skips spaces and tabs; true if there were any.
    mutating func skipSpaces() -> Bool {
        var skipped = false
        while let c = rest.first, c == " " || c == "\t" { rest.removeFirst(); skipped = true }
        return skipped
    }

    mutating func integer() -> Int? {
        var end = rest.startIndex
        if end < rest.endIndex, rest[end] == "-" { end = rest.index(after: end) }
        let digitsStart = end
        while end < rest.endIndex, rest[end].isASCII, rest[end].isNumber { end = rest.index(after: end) }
        guard end > digitsStart, let value = SongNumbers.integer(rest[rest.startIndex..<end]) else { return nil }
        rest = rest[end...]
        return value
    }
}
