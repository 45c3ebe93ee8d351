import SongModel

/// Cue payload to syllables: tags stripped, entities decoded, split at inline timestamps.
enum VTTCueText {
    static func syllables(_ payload: String, start: Double, end: Double) -> [Syllable] {
        var pieces: [(start: Double, text: String)] = [(start, "")]
        var rest = Substring(payload)
        while let open = rest.firstIndex(of: "<") {
            pieces[pieces.count - 1].text += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else { rest = rest[rest.index(after: open)...]; continue }
            let tag = rest[rest.index(after: open)..<close]
            if let t = VTTTimestamp.seconds(tag), t >= pieces[pieces.count - 1].start, t <= end {
                pieces.append((t, ""))
            }
            rest = rest[rest.index(after: close)...]
        }
        pieces[pieces.count - 1].text += rest
        var result: [Syllable] = []
        for (i, piece) in pieces.enumerated() {
            let text = decodeEntities(piece.text)
            let trimmed = Substring(text).trimmed
            if trimmed.isEmpty { continue }
            let next = i + 1 < pieces.count ? pieces[i + 1].start : end
            let spaceAfter = i + 1 < pieces.count && (text.last?.isWhitespace == true || pieces[i + 1].text.first?.isWhitespace == true)
            result.append(Syllable(text: String(trimmed) + (spaceAfter ? " " : ""), start: piece.start, end: next))
        }
        return result
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = s
        for (entity, char) in [("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", " "), ("&lrm;", "\u{200E}"), ("&rlm;", "\u{200F}"), ("&amp;", "&")] {
            out = out.replacing(entity, with: char)
        }
        return out
    }
}
