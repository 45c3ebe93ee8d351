import Foundation
import SongModel

/// Reads JSON lyric cues: an array `[{"start": s, "end": s, "text": "…", …}]`, an object
/// with such an array under `"cues"` (node-webvtt's output), or an object with a FLO/LRC
/// `"lyrics"` string plus `title`/`singer`/`album`/`duration`/`file` (the FLO song JSON).
public enum JSONCueReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        let decoded = SongTextDecoder.decode(bytes)
        let data = Data(decoded.text.utf8)
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw SongFileError(path: path, line: errorLine(error, in: data), message: "invalid JSON: \(errorSummary(error))")
        }
        let cueLines = JSONCueLocator.elementLines(decoded.text)
        if let cues = root as? [Any] {
            return try song(cues: cues, metadata: SongMetadata(), path: path, cueLines: cueLines, mode: mode)
        }
        guard let object = root as? [String: Any] else {
            throw SongFileError(path: path, line: 1, message: "expected a JSON array of cues or an object")
        }
        var metadata = SongMetadata()
        metadata.title = object["title"] as? String ?? ""
        metadata.artist = object["singer"] as? String ?? object["artist"] as? String ?? ""
        metadata.album = object["album"] as? String
        metadata.lengthSeconds = (object["duration"] as? NSNumber)?.doubleValue
        metadata.audioFile = object["file"] as? String ?? object["audio"] as? String
        metadata.coverFile = object["image"] as? String ?? object["cover"] as? String
        if let cues = object["cues"] as? [Any] {
            return try song(cues: cues, metadata: metadata, path: path, cueLines: cueLines, mode: mode)
        }
        if let lyrics = object["lyrics"] as? String {
            var song = try LRCReader.read(text: lyrics, path: path, mode: mode)
            let lrcMeta = song.metadata
            song.metadata = metadata
            if metadata.title.isEmpty { song.metadata.title = lrcMeta.title }
            if metadata.artist.isEmpty { song.metadata.artist = lrcMeta.artist }
            return song
        }
        throw SongFileError(path: path, line: 1, message: "JSON object has neither \"cues\" nor \"lyrics\"")
    }

    /// Cues to lines. Leniently a cue that cannot be used (no number for `start`, ends before it
    /// starts …) is skipped with a warning; strictly it is an error.
    private static func song(cues: [Any], metadata: SongMetadata, path: String, cueLines: [Int],
                             mode: SongReadingMode) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        var lines: [LyricLine] = []
        for (i, element) in cues.enumerated() {
            let line = i < cueLines.count ? cueLines[i] : 1
            func skip(_ message: String) throws(SongFileError) {
                try assumptions.assume(line: line, problem: "cue \(i + 1): \(message)", assumption: "the cue is skipped")
            }
            guard let cue = element as? [String: Any] else { try skip("expected an object"); continue }
            guard let start = seconds(cue["start"]) else { try skip("\"start\" must be a number of seconds ≥ 0"); continue }
            guard let end = seconds(cue["end"]) else { try skip("\"end\" must be a number of seconds ≥ 0"); continue }
            guard end >= start else { try skip("ends (\(end) s) before it starts (\(start) s)"); continue }
            guard let text = cue["text"] as? String else { try skip("\"text\" must be a string"); continue }
            let shown = text.split(whereSeparator: \.isNewline).map { Substring($0).trimmed }.joined(separator: " ")
            if shown.isEmpty { continue }
            lines.append(LyricLine(start: start, end: end, syllables: [Syllable(text: shown, start: start, end: end)]))
        }
        guard !lines.isEmpty else {
            if let first = assumptions.problems.first {
                throw SongFileError(path: path, line: first.line, message: "\(first.problem) (no usable cue remains)")
            }
            throw SongFileError(path: path, line: 1, message: "no cues with text")
        }
        lines = lines.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return Song(metadata: metadata, parts: [VoicePart(name: "Solo", lines: lines)], beatClock: nil,
                    source: SongSource(path: path, format: .jsonCues), warnings: assumptions.all)
    }

    private static func seconds(_ value: Any?) -> Double? {
        let number: Double?
        if let string = value as? String { number = SongNumbers.decimal(Substring(string)) }
        else if let n = value as? NSNumber { number = n.doubleValue }
        else { number = nil }
        guard let number, number.isFinite, number >= 0, number < 1e7 else { return nil }
        return number
    }

    /// Foundation reports "line N" on some platforms and "around character N" (a byte offset) on others.
    private static func errorLine(_ error: Error, in data: Data) -> Int {
        let text = "\(error) \(errorSummary(error))"
        if let range = text.range(of: "line "), let line = Int(text[range.upperBound...].prefix(while: \.isNumber)) {
            return line
        }
        if let range = text.range(of: "character "), let offset = Int(text[range.upperBound...].prefix(while: \.isNumber)) {
            return data.prefix(max(0, offset)).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        }
        return 1
    }

    private static func errorSummary(_ error: Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }
}
