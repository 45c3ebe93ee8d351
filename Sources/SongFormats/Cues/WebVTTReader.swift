import SongModel

/// Reads WebVTT subtitles as lyric lines. Cue text tags (`<v>`, `<c>`, `<b>` …) are removed;
/// inline cue timestamps (`<00:00:01.500>`, WebVTT's karaoke timing) become syllables.
/// NOTE, STYLE and REGION blocks are skipped. A block without a (valid) timing line is
/// skipped as the WebVTT parsing algorithm says, with a warning (an error when strict), since
/// its text would otherwise be silently lost.
public enum WebVTTReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        try read(text: SongTextDecoder.decode(bytes).text, path: path, mode: mode)
    }

    public static func read(text: String, path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        let lines = TextLines.split(text)
        guard let first = lines.first, first.trimmed.hasPrefix("WEBVTT") else {
            throw SongFileError(path: path, line: 1, message: "a WebVTT file must start with 'WEBVTT'")
        }
        var result: [LyricLine] = []
        // Malformed blocks are skipped as the WebVTT parsing algorithm says; the first one
        // is reported if nothing usable remains.
        var firstProblem: SongFileError?
        var i = 1
        // The header block runs to the first blank line.
        while i < lines.count, !lines[i].trimmed.isEmpty { i += 1 }
        while i < lines.count {
            while i < lines.count, lines[i].trimmed.isEmpty { i += 1 }
            guard i < lines.count else { break }
            let blockStart = i
            var block: [Substring] = []
            while i < lines.count, !lines[i].trimmed.isEmpty { block.append(lines[i]); i += 1 }
            let head = block[0].trimmed
            if head.hasPrefix("NOTE") || head == "STYLE" || head == "REGION" { continue }
            guard let timingIndex = block.prefix(2).firstIndex(where: { $0.contains("-->") }) else {
                let problem = SongFileError(path: path, line: blockStart + 1,
                    message: "text '\(UltraStarBodyParser.excerpt(head))' is not in a cue (no 'start --> end' line)")
                firstProblem = firstProblem ?? problem
                try assumptions.assume(line: problem.line, problem: problem.message, assumption: "the block is skipped")
                continue
            }
            let timingLine = blockStart + timingIndex + 1
            let timing = block[timingIndex]
            let arrow = timing.range(of: "-->")!
            let endField = timing[arrow.upperBound...].trimmed.prefix(while: { !$0.isWhitespace })
            guard let start = VTTTimestamp.seconds(timing[..<arrow.lowerBound].trimmed),
                  let end = VTTTimestamp.seconds(endField) else {
                let problem = SongFileError(path: path, line: timingLine,
                    message: "malformed cue timing '\(UltraStarBodyParser.excerpt(timing))'")
                firstProblem = firstProblem ?? problem
                try assumptions.assume(line: timingLine, problem: problem.message, assumption: "the cue is skipped")
                continue
            }
            guard end >= start else {
                firstProblem = firstProblem ?? SongFileError(path: path, line: timingLine, message: "cue ends before it starts")
                try assumptions.assume(line: timingLine, problem: "cue ends before it starts", assumption: "the cue is skipped")
                continue
            }
            let payload = block[(timingIndex + 1)...].map { String($0.trimmed) }.joined(separator: " ")
            let syllables = VTTCueText.syllables(payload, start: start, end: end)
            if syllables.isEmpty { continue }
            result.append(LyricLine(start: start, end: end, syllables: syllables))
        }
        guard !result.isEmpty else {
            if let firstProblem { throw firstProblem }
            throw SongFileError(path: path, line: nil, message: "no cues with text")
        }
        result = result.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return Song(metadata: SongMetadata(), parts: [VoicePart(name: "Solo", lines: result)], beatClock: nil,
                    source: SongSource(path: path, format: .webVTT), warnings: assumptions.all)
    }
}
