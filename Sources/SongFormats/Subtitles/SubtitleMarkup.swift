/// Removes the markup subtitle formats put in their text.
enum SubtitleMarkup {
    /// `<i>x</i>` → `x`, `{\an8}` → ``, entities decoded, runs of spaces collapsed.
    static func plainText(_ text: String) -> String {
        var out = ""
        var depth: Character?
        for c in text {
            if let open = depth {
                if (open == "<" && c == ">") || (open == "{" && c == "}") { depth = nil }
                continue
            }
            if c == "<" || c == "{" { depth = c; continue }
            out.append(c)
        }
        let decoded = VTTCueText.decodeEntities(out)
        return decoded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
