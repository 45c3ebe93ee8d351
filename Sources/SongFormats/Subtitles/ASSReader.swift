import SongModel

/// Reads Advanced SubStation Alpha / SubStation Alpha (`.ass`, `.ssa`) subtitles, the format
/// of Karaoke Mugen and PiKaraoke: `Dialogue:` events of the `[Events]` section with the
/// fields its `Format:` line names. `{\k}`, `{\K}`, `{\kf}` and `{\ko}` tags (durations in
/// centiseconds) split a line into timed syllables; other override tags are removed, `\N`
/// and `\n` become spaces. `Comment:` events and the `fx` lines Aegisub's karaoke templater
/// generates from them are not lyrics and are skipped. `Title:` in `[Script Info]` is the title.
public enum ASSReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        try read(text: SongTextDecoder.decode(bytes).text, path: path, mode: mode)
    }

    public static func read(text: String, path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        var metadata = SongMetadata()
        var section = ""
        // SSA v4 and ASS default field order, used until a Format: line says otherwise.
        var fields = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]
        var lines: [LyricLine] = []
        for (index, raw) in TextLines.split(text).enumerated() {
            let number = index + 1
            let line = raw.trimmed
            if line.first == "[" && line.last == "]" { section = line.lowercased(); continue }
            guard let colon = line.firstIndex(of: ":"), line.first != ";" else { continue }
            let key = line[..<colon].trimmed.lowercased()
            let value = line[line.index(after: colon)...].trimmed
            switch (section, key) {
            case ("[script info]", "title"):
                if value != "Default Aegisub file" { metadata.title = String(value) }
            case ("[events]", "format"):
                fields = value.split(separator: ",").map { $0.trimmed.lowercased() }
            case ("[events]", "dialogue"):
                let values = splitFields(value, count: fields.count)
                func field(_ name: String) -> Substring? { fields.firstIndex(of: name).flatMap { $0 < values.count ? values[$0] : nil } }
                guard let startText = field("start"), let endText = field("end"), let body = field("text") else {
                    try assumptions.assume(line: number, problem: "Dialogue has fewer fields than its Format line names",
                                           assumption: "the line is skipped")
                    continue
                }
                if field("effect")?.trimmed.lowercased() == "fx" { continue }
                guard let start = VTTTimestamp.seconds(startText.trimmed),
                      let end = VTTTimestamp.seconds(endText.trimmed), end >= start else {
                    try assumptions.assume(line: number, problem: "malformed Dialogue times '\(startText)', '\(endText)'",
                                           assumption: "the line is skipped")
                    continue
                }
                let syllables = karaokeSyllables(String(body), start: start, end: end)
                if syllables.isEmpty { continue }
                lines.append(LyricLine(start: start, end: end, syllables: syllables))
            default:
                continue
            }
        }
        guard !lines.isEmpty else { throw SongFileError(path: path, line: nil, message: "no Dialogue lines with text in [Events]") }
        lines = lines.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return Song(metadata: metadata, parts: [VoicePart(name: "Solo", lines: lines)], beatClock: nil,
                    source: SongSource(path: path, format: .ass), warnings: assumptions.all)
    }

    /// Splits at the first `count - 1` commas: the last field (Text) may contain commas.
    static func splitFields(_ value: Substring, count: Int) -> [Substring] {
        var result: [Substring] = []
        var rest = value
        while result.count < count - 1, let comma = rest.firstIndex(of: ",") {
            result.append(rest[..<comma])
            rest = rest[rest.index(after: comma)...]
        }
        result.append(rest)
        return result
    }

    /// Text with `{\kNN}` syllable timing into syllables; without any `\k`, one syllable.
    static func karaokeSyllables(_ text: String, start: Double, end: Double) -> [Syllable] {
        var pieces: [(start: Double, duration: Double?, text: String)] = [(start, nil, "")]
        var clock = start
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            pieces[pieces.count - 1].text += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { rest = rest[rest.index(after: open)...]; continue }
            for duration in kDurations(rest[rest.index(after: open)..<close]) {
                // A \k closes the piece before it: its start plus the earlier durations.
                if let last = pieces.last, let d = last.duration { clock = last.start + d }
                pieces.append((clock, duration, ""))
            }
            rest = rest[rest.index(after: close)...]
        }
        pieces[pieces.count - 1].text += rest
        var result: [Syllable] = []
        for piece in pieces {
            var shown = piece.text.replacingOccurrences(of: "\\N", with: " ").replacingOccurrences(of: "\\n", with: " ")
            shown = shown.replacingOccurrences(of: "\\h", with: " ")
            let trimmed = Substring(shown).trimmed
            if trimmed.isEmpty {
                // A timed gap (`{\k22}` with no text) or trailing space: the space belongs to the syllable before.
                if shown.contains(" "), !result.isEmpty, result[result.count - 1].text.last != " " { result[result.count - 1].text += " " }
                continue
            }
            let spaceBefore = shown.first == " " && !result.isEmpty && result[result.count - 1].text.last != " "
            if spaceBefore { result[result.count - 1].text += " " }
            let pieceStart = min(max(piece.start, start), end)
            let pieceEnd = piece.duration.map { min(end, pieceStart + $0) } ?? end
            result.append(Syllable(text: String(trimmed) + (shown.last == " " ? " " : ""), start: pieceStart, end: max(pieceStart, pieceEnd)))
        }
        if var last = result.popLast() {
            while last.text.last == " " { last.text.removeLast() }
            result.append(last)
        }
        return result
    }

    /// The durations (seconds) of every `\k`, `\K`, `\kf`, `\ko` tag in one override block.
    static func kDurations(_ block: Substring) -> [Double] {
        var result: [Double] = []
        for tag in block.split(separator: "\\").dropFirst(block.first == "\\" ? 0 : 1) {
            var name = tag
            guard name.first == "k" || name.first == "K" else { continue }
            name = name.dropFirst()
            if name.first == "f" || name.first == "o" { name = name.dropFirst() }
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && $0.isNumber }), let cs = Int(name.prefix(7)) else { continue }
            result.append(Double(cs) / 100)
        }
        return result
    }
}
