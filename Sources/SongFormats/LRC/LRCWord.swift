import SongModel

/// One timed piece of an LRC line: the text from one word stamp to the next.
struct LRCWord {
    /// Nil for the text before the first word stamp (it starts with the line).
    var start: Double?
    var text: String

    /// Splits line text at `<mm:ss.xx>` (or inline `[mm:ss.xx]`) word stamps.
    static func split(_ text: Substring, line: Int, assumptions: inout ReadingAssumptions,
                      sawColonFraction: inout Bool) throws(SongFileError) -> [LRCWord] {
        var words: [LRCWord] = [LRCWord(start: nil, text: "")]
        var rest = text
        while let open = rest.firstIndex(where: { $0 == "<" || $0 == "[" }) {
            let closer: Character = rest[open] == "<" ? ">" : "]"
            guard let close = rest[open...].firstIndex(of: closer),
                  let stamp = LRCTimestamp(rest[rest.index(after: open)..<close]) else {
                // Not a stamp: ordinary text such as "<3" or "[Chorus]".
                words[words.count - 1].text += rest[...open]
                rest = rest[rest.index(after: open)...]
                continue
            }
            sawColonFraction = sawColonFraction || stamp.colonFraction
            words[words.count - 1].text += rest[..<open]
            if stamp.secondsOverflow {
                try assumptions.assume(line: line, problem: "word time \(rest[open...close]) has more than 59 seconds",
                                       assumption: "read as \(LRCTimestamp.format(stamp.seconds))")
            }
            if let previous = words.compactMap(\.start).last, stamp.seconds < previous {
                try assumptions.assume(line: line, problem: "word time \(rest[open...close]) is earlier than the word before it",
                                       assumption: "the stamp is ignored")
                rest = rest[rest.index(after: close)...]
                continue
            }
            words.append(LRCWord(start: stamp.seconds, text: ""))
            rest = rest[rest.index(after: close)...]
        }
        words[words.count - 1].text += rest
        return words
    }

    /// Syllables with their own spaces: trimmed text plus one space where a word boundary was.
    static func syllables(_ words: [LRCWord], lineStart: Double, lineEnd: Double, offset: Double) -> [Syllable] {
        var result: [Syllable] = []
        for (i, word) in words.enumerated() {
            let text = Substring(word.text).trimmed
            let start = word.start.map { $0 - offset } ?? lineStart
            guard !text.isEmpty else { continue }
            let nextStart = words[(i + 1)...].compactMap(\.start).first.map { $0 - offset } ?? lineEnd
            let spaceAfter = word.text.last?.isWhitespace == true
                || (i + 1 < words.count && words[i + 1].text.first?.isWhitespace == true)
            result.append(Syllable(text: String(text) + (spaceAfter ? " " : ""), start: start,
                                   end: max(start, min(nextStart, lineEnd))))
        }
        if var last = result.popLast() {
            while last.text.last == " " { last.text.removeLast() }
            result.append(last)
        }
        return result
    }
}
