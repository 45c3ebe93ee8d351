import Foundation
import SongModel

/// Reads LRC lyrics: simple, several stamps per line, enhanced word timing (`<mm:ss.xx>`
/// or foobar2000-style `[mm:ss.xx]` inside the text), `[offset:]`, ID tags, and the
/// `[mm:ss:mss]` FLO variant (reported as `.flo`).
///
/// Lines without any timestamp are ignored, as LRC players do (they are comments). Leniently
/// a line whose stamp is malformed is skipped, seconds over 59 carry into the minutes, a tag
/// value that is not a number is ignored and a word stamp going backwards is dropped, each with
/// a warning; strictly each of these is an error.
///
/// ESLyric saves a line it has no time for with the stamp `[00:00.00]`: such placeholders (two or
/// more lines stamped 0, or a 0 after later stamps) are untimed lines and not shown. Voice marks
/// (`v1:`, `v2:` …, Walaoke `M:`/`F:`/`D:`) on two or more lines make a duet (`LRCVoice`).
public enum LRCReader {
    /// Shown until this long after the last line starts when nothing gives its end.
    static let lastLineMinimum = 3.0

    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        try read(text: SongTextDecoder.decode(bytes).text, path: path, mode: mode)
    }

    public static func read(text: String, path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        var metadata = SongMetadata()
        var offsetSeconds = 0.0
        var timed: [(start: Double, words: [LRCWord], line: Int, voice: LRCVoice?)] = []
        var sawColonFraction = false
        var sawLaterStamp = false
        var zeroStampLines = 0
        var placeholders: Set<Int> = []
        var markTexts: [Int: String] = [:]  // file line → the voice mark removed from its text

        lines: for (index, raw) in TextLines.split(text).enumerated() {
            let number = index + 1
            var rest = raw.trimmed
            var starts: [Double] = []
            // Leading brackets: timestamps or one ID tag.
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let stamp = LRCTimestamp(inside) {
                    if stamp.secondsOverflow {
                        try assumptions.assume(line: number, problem: "timestamp [\(inside)] has more than 59 seconds",
                                               assumption: "read as \(LRCTimestamp.format(stamp.seconds))")
                    }
                    starts.append(stamp.seconds)
                    sawColonFraction = sawColonFraction || stamp.colonFraction
                    rest = rest[rest.index(after: close)...]
                } else if inside.first?.isNumber == true {
                    try assumptions.assume(line: number, problem: "malformed timestamp [\(inside)]", assumption: "the line is skipped")
                    continue lines
                } else if starts.isEmpty, let colon = inside.firstIndex(of: ":") {
                    let key = inside[..<colon].trimmed.lowercased()
                    let value = String(inside[inside.index(after: colon)...].trimmed)
                    try apply(tag: key, value: value, line: number, to: &metadata, offset: &offsetSeconds, assumptions: &assumptions)
                    rest = ""
                    break
                } else {
                    break
                }
            }
            if starts.isEmpty { continue }
            if starts == [0] {
                zeroStampLines += 1
                if sawLaterStamp { placeholders.insert(number) }
            }
            sawLaterStamp = sawLaterStamp || starts.contains { $0 > 0 }
            let mark = LRCVoice.split(rest)
            let words = try LRCWord.split(mark?.rest ?? rest, line: number, assumptions: &assumptions, sawColonFraction: &sawColonFraction)
            if let mark { markTexts[number] = String(rest[..<mark.rest.startIndex]) }
            for start in starts { timed.append((start, words, number, mark?.voice)) }
        }
        guard !timed.isEmpty else {
            throw SongFileError(path: path, line: nil, message: "no timed lyric lines ([mm:ss.xx]text)")
        }
        // ESLyric's placeholders for untimed lines: several lines at [00:00.00], or one after later stamps.
        if zeroStampLines >= 2 {
            for entry in timed where entry.start == 0 { placeholders.insert(entry.line) }
        }
        timed.removeAll { placeholders.contains($0.line) && $0.start == 0 }
        guard !timed.isEmpty else {
            throw SongFileError(path: path, line: nil, message: "every line is stamped [00:00.00], ESLyric's mark for a line without a time: the lyrics are not synchronised")
        }
        let voices = LRCVoiceAssignment(marks: timed.map(\.voice))
        if !voices.marksCount {
            // Not voice marks after all (a lone `D:`): the text keeps them.
            for i in timed.indices { if let mark = markTexts[timed[i].line] { timed[i].words[0].text = mark + timed[i].words[0].text } }
        }
        // Each line ends where the next starts, whoever sings it.
        let lines = lyricLines(timed, metadata: metadata, offsetSeconds: offsetSeconds)
        guard !lines.isEmpty else {
            throw SongFileError(path: path, line: nil, message: "every timed line is empty")
        }
        let parts = voices.parts.map { name, members in
            let own = Set(members)
            return VoicePart(name: name, lines: lines.filter { own.contains($0.index) }.map(\.line))
        }.filter { !$0.lines.isEmpty }
        return Song(metadata: metadata, parts: parts, beatClock: nil,
                    source: SongSource(path: path, format: sawColonFraction ? .flo : .lrc), warnings: assumptions.all)
    }

    /// The shown lines in time order, each with the index of its entry in `timed`: each ends
    /// where the next starts, the last after its last word; a line with no text only ends the one before.
    private static func lyricLines(_ timed: [(start: Double, words: [LRCWord], line: Int, voice: LRCVoice?)], metadata: SongMetadata,
                                   offsetSeconds: Double) -> [(index: Int, line: LyricLine)] {
        // Stable sort: lines with several stamps were added in file order per stamp.
        let order = timed.indices.sorted { (timed[$0].start, $0) < (timed[$1].start, $1) }
        let sorted = order.map { timed[$0] }
        var lines: [(index: Int, line: LyricLine)] = []
        for (i, entry) in sorted.enumerated() {
            let start = entry.start - offsetSeconds
            let lastWordStart = entry.words.compactMap(\.start).max().map { $0 - offsetSeconds } ?? start
            var end: Double
            if i + 1 < sorted.count {
                end = sorted[i + 1].start - offsetSeconds
            } else if let length = metadata.lengthSeconds, length > lastWordStart {
                end = min(length, max(lastWordStart, start) + 10)
            } else {
                end = max(lastWordStart, start) + lastLineMinimum
            }
            end = max(end, lastWordStart, start)
            let syllables = LRCWord.syllables(entry.words, lineStart: start, lineEnd: end, offset: offsetSeconds)
            // An empty line only marks where the previous one ends.
            if syllables.isEmpty { continue }
            lines.append((order[i], LyricLine(start: start, end: end, syllables: syllables)))
        }
        return lines
    }

    private static func apply(tag: String, value: String, line: Int, to metadata: inout SongMetadata, offset: inout Double,
                              assumptions: inout ReadingAssumptions) throws(SongFileError) {
        switch tag {
        case "ti": metadata.title = value
        case "ar": metadata.artist = value
        case "al": metadata.album = value
        case "au", "by": if metadata.creator == nil { metadata.creator = value }
        case "la", "lang": metadata.language = value
        case "offset":
            let digits = Substring(value.replacingOccurrences(of: "+", with: ""))
            if let ms = SongNumbers.integer(digits) {
                // Positive offsets make the lyrics appear sooner.
                offset = Double(ms) / 1000
            } else if let ms = SongNumbers.decimal(digits) {
                try assumptions.assume(line: line, problem: "[offset:] must be a whole number of milliseconds, found '\(value)'",
                                       assumption: "read as \(ms) ms")
                offset = ms / 1000
            } else {
                try assumptions.assume(line: line, problem: "[offset:] must be a whole number of milliseconds, found '\(value)'",
                                       assumption: "no offset is applied")
            }
        case "length":
            if let seconds = SongNumbers.decimal(Substring(value)), seconds >= 0, seconds < 1e6 {
                metadata.lengthSeconds = seconds  // `[length:225]`: seconds
                return
            }
            guard let stamp = LRCTimestamp(Substring(value)) else {
                try assumptions.assume(line: line, problem: "[length:] must be mm:ss, found '\(value)'", assumption: "the tag is ignored")
                return
            }
            metadata.lengthSeconds = stamp.seconds
        default:
            if !tag.isEmpty { metadata.otherTags[tag.uppercased()] = value }
        }
    }
}
