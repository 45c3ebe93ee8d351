import SongModel

/// Reads SubRip (`.srt`) subtitles as lyric lines: blocks of an optional counter, a
/// `hh:mm:ss,mmm --> hh:mm:ss,mmm` timing line and text lines, separated by blank lines.
/// HTML-like tags (`<i>`, `<font …>`) and ASS override blocks (`{\an8}`) are removed.
/// Leniently a block without a usable timing line is skipped with a warning.
public enum SubRipReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        try read(text: SongTextDecoder.decode(bytes).text, path: path, mode: mode)
    }

    public static func read(text: String, path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        let lines = TextLines.split(text)
        var result: [LyricLine] = []
        var i = 0
        while i < lines.count {
            while i < lines.count, lines[i].trimmed.isEmpty { i += 1 }
            guard i < lines.count else { break }
            let blockStart = i
            var block: [Substring] = []
            while i < lines.count, !lines[i].trimmed.isEmpty { block.append(lines[i]); i += 1 }
            guard let timingIndex = block.prefix(2).firstIndex(where: { $0.contains("-->") }) else {
                try assumptions.assume(line: blockStart + 1,
                                       problem: "text '\(UltraStarBodyParser.excerpt(block[0].trimmed))' has no 'start --> end' timing line",
                                       assumption: "the block is skipped")
                continue
            }
            let timingLine = blockStart + timingIndex + 1
            let timing = block[timingIndex]
            let arrow = timing.range(of: "-->")!
            // SRT writes a comma before the milliseconds; some writers use a dot. Position
            // coordinates (`X1:… Y1:…`) may follow the end time.
            let endField = timing[arrow.upperBound...].trimmed.prefix(while: { !$0.isWhitespace })
            guard let start = VTTTimestamp.seconds(timing[..<arrow.lowerBound].trimmed),
                  let end = VTTTimestamp.seconds(endField) else {
                try assumptions.assume(line: timingLine, problem: "malformed timing '\(UltraStarBodyParser.excerpt(timing.trimmed))'",
                                       assumption: "the block is skipped")
                continue
            }
            guard end >= start else {
                try assumptions.assume(line: timingLine, problem: "subtitle ends before it starts", assumption: "the block is skipped")
                continue
            }
            let payload = block[(timingIndex + 1)...].map { String($0.trimmed) }.joined(separator: " ")
            let shown = SubtitleMarkup.plainText(payload)
            if shown.isEmpty { continue }
            result.append(LyricLine(start: start, end: end, syllables: [Syllable(text: shown, start: start, end: end)]))
        }
        guard !result.isEmpty else { throw SongFileError(path: path, line: nil, message: "no timed subtitles (start --> end)") }
        result = result.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return Song(metadata: SongMetadata(), parts: [VoicePart(name: "Solo", lines: result)], beatClock: nil,
                    source: SongSource(path: path, format: .subRip), warnings: assumptions.all)
    }
}
