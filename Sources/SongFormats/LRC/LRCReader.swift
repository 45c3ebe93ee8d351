import Foundation
import SongModel

/// Reads LRC lyrics: simple, several stamps per line, enhanced word timing (`<mm:ss.xx>`
/// or foobar2000-style `[mm:ss.xx]` inside the text), `[offset:]`, ID tags, and the
/// `[mm:ss:mss]` FLO variant (reported as `.flo`).
///
/// Lines without any timestamp are ignored, as LRC players do (they are comments);
/// a bracket that starts like a timestamp but is not one is an error.
public enum LRCReader {
    /// Shown until this long after the last line starts when nothing gives its end.
    static let lastLineMinimum = 3.0

    public static func read(bytes: [UInt8], path: String) throws(SongFileError) -> Song {
        try read(text: SongTextDecoder.decode(bytes).text, path: path)
    }

    public static func read(text: String, path: String) throws(SongFileError) -> Song {
        var metadata = SongMetadata()
        var offsetSeconds = 0.0
        var timed: [(start: Double, words: [LRCWord], line: Int)] = []
        var sawColonFraction = false

        for (index, raw) in TextLines.split(text).enumerated() {
            let number = index + 1
            func fail(_ message: String) -> SongFileError { SongFileError(path: path, line: number, message: message) }
            var rest = raw.trimmed
            var starts: [Double] = []
            // Leading brackets: timestamps or one ID tag.
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let stamp = LRCTimestamp(inside) {
                    starts.append(stamp.seconds)
                    sawColonFraction = sawColonFraction || stamp.colonFraction
                    rest = rest[rest.index(after: close)...]
                } else if inside.first?.isNumber == true {
                    throw fail("malformed timestamp [\(inside)]")
                } else if starts.isEmpty, let colon = inside.firstIndex(of: ":") {
                    let key = inside[..<colon].trimmed.lowercased()
                    let value = String(inside[inside.index(after: colon)...].trimmed)
                    try apply(tag: key, value: value, to: &metadata, offset: &offsetSeconds, fail: fail)
                    rest = ""
                    break
                } else {
                    break
                }
            }
            if starts.isEmpty { continue }
            let words = try LRCWord.split(rest, fail: fail, sawColonFraction: &sawColonFraction)
            for start in starts { timed.append((start, words, number)) }
        }
        guard !timed.isEmpty else {
            throw SongFileError(path: path, line: nil, message: "no timed lyric lines ([mm:ss.xx]text)")
        }
        // Stable sort: lines with several stamps were added in file order per stamp.
        let sorted = timed.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var lines: [LyricLine] = []
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
            lines.append(LyricLine(start: start, end: end, syllables: syllables))
        }
        guard !lines.isEmpty else {
            throw SongFileError(path: path, line: nil, message: "every timed line is empty")
        }
        return Song(metadata: metadata, parts: [VoicePart(name: "Solo", lines: lines)], beatClock: nil,
                    source: SongSource(path: path, format: sawColonFraction ? .flo : .lrc))
    }

    private static func apply(tag: String, value: String, to metadata: inout SongMetadata, offset: inout Double,
                              fail: (String) -> SongFileError) throws(SongFileError) {
        switch tag {
        case "ti": metadata.title = value
        case "ar": metadata.artist = value
        case "al": metadata.album = value
        case "au", "by": if metadata.creator == nil { metadata.creator = value }
        case "la", "lang": metadata.language = value
        case "offset":
            guard let ms = SongNumbers.integer(Substring(value.replacingOccurrences(of: "+", with: ""))) else {
                throw fail("[offset:] must be a whole number of milliseconds, found '\(value)'")
            }
            // Positive offsets make the lyrics appear sooner.
            offset = Double(ms) / 1000
        case "length":
            guard let stamp = LRCTimestamp(Substring(value)) else {
                throw fail("[length:] must be mm:ss, found '\(value)'")
            }
            metadata.lengthSeconds = stamp.seconds
        default:
            if !tag.isEmpty { metadata.otherTags[tag.uppercased()] = value }
        }
    }
}
