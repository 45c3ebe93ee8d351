import SongModel

/// Reads Advanced SubStation Alpha / SubStation Alpha (`.ass`, `.ssa`) subtitles, the format
/// of Karaoke Mugen and PiKaraoke: `Dialogue:` events of the `[Events]` section with the
/// fields its `Format:` line names. `{\k}`, `{\K}`, `{\kf}` and `{\ko}` tags (durations in
/// centiseconds) split a line into timed syllables; other override tags are removed, `\N`
/// and `\n` become spaces. `Title:` in `[Script Info]` is the title.
///
/// Aegisub's karaoke templater keeps the timed lyrics as `Comment:` events with the effect
/// `karaoke` and writes the effects it generates from them as `fx` lines: in such a file those
/// comments are the lyrics, as Karaoke Mugen reads them. `template`, `code`, `mixin` and `fx`
/// lines are never lyrics.
public enum ASSReader {
    /// Effects of lines the karaoke templaters write that are not lyrics.
    static let templaterEffects: Set<String> = ["template", "code", "mixin", "fx", "fxgroup"]

    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        try read(text: SongTextDecoder.decode(bytes).text, path: path, mode: mode)
    }

    public static func read(text: String, path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        var metadata = SongMetadata()
        var section = ""
        // SSA v4 and ASS default field order, used until a Format: line says otherwise.
        var fields = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]
        var dialogueLines: [LyricLine] = []
        var karaokeComments: [LyricLine] = []
        var warnedTimeForm = false
        var templaterLines = 0
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
            case ("[events]", "dialogue"), ("[events]", "comment"):
                let isComment = key == "comment"
                let values = splitFields(value, count: fields.count)
                func field(_ name: String) -> Substring? { fields.firstIndex(of: name).flatMap { $0 < values.count ? values[$0] : nil } }
                // The effect's first word: `template syl noblank`, `code once`, `karaoke`, `fx`.
                let effect = field("effect").map { $0.trimmed.lowercased().split(separator: " ").first.map(String.init) ?? "" } ?? ""
                if templaterEffects.contains(effect) { templaterLines += 1; continue }
                if isComment && effect != "karaoke" { continue }
                guard let startText = field("start"), let endText = field("end"), let body = field("text") else {
                    try assumptions.assume(line: number, problem: "\(isComment ? "Comment" : "Dialogue") has fewer fields than its Format line names",
                                           assumption: "the line is skipped")
                    continue
                }
                guard let start = ASSTime(startText), let end = ASSTime(endText), end.seconds >= start.seconds else {
                    try assumptions.assume(line: number, problem: "malformed \(isComment ? "Comment" : "Dialogue") times '\(startText)', '\(endText)'",
                                           assumption: "the line is skipped")
                    continue
                }
                if !(start.isCanonical && end.isCanonical) && !warnedTimeForm {
                    warnedTimeForm = true
                    try assumptions.assume(line: number, problem: "times '\(startText.trimmed)', '\(endText.trimmed)' are not written h:mm:ss.cc",
                                           assumption: "read as libass and Aegisub read them (this and any later such line)")
                }
                let syllables = karaokeSyllables(String(body), start: start.seconds, end: end.seconds)
                if syllables.isEmpty { continue }
                let line = LyricLine(start: start.seconds, end: end.seconds, syllables: syllables)
                if isComment { karaokeComments.append(line) } else { dialogueLines.append(line) }
            default:
                continue
            }
        }
        // A templater file: the `karaoke` comments are the lyrics, the Dialogue lines its effects.
        var lines = karaokeComments.isEmpty ? dialogueLines : karaokeComments
        guard !lines.isEmpty else {
            throw SongFileError(path: path, line: nil, message: templaterLines > 0
                ? "no lyric lines in [Events]: only karaoke-templater lines (template, code, fx), none of the `Comment: …karaoke` lines they are made from"
                : "no Dialogue lines with text in [Events]")
        }
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
