/// Finds the line on which each element of the cue array begins, so errors can name it.
enum JSONCueLocator {
    static func elementLines(_ text: String) -> [Int] {
        var lines: [Int] = []
        var line = 1, depth = 0, inString = false, escaped = false
        var arrayDepth: Int?
        for byte in text.utf8 {
            if byte == 0x0A { line += 1 }
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B:
                depth += 1
                if arrayDepth == nil { arrayDepth = depth }
            case 0x7B:
                if depth == arrayDepth { lines.append(line) }
                depth += 1
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return lines
    }
}
