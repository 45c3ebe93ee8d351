/// TTML's whitespace handling (TTML 1 §7.2.3 `xml:space`, XSL `white-space-collapse`):
/// with `xml:space="default"` (inherited, the default) every run of spaces, tabs and line
/// ends is one space, so an indented (pretty-printed) document reads as a compact one; with
/// `xml:space="preserve"` spaces are kept as written (a line end is still a space: a lyric line
/// is one line).
enum TTMLWhitespace {
    static func normalise(_ text: String, preserve: Bool) -> String {
        var out = ""
        var lastWasSpace = false
        for c in text {
            let space = c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n"
            if space {
                if preserve || !lastWasSpace { out.append(" ") }
            } else {
                out.append(c)
            }
            lastWasSpace = space
        }
        return out
    }
}
