import SongModel

/// Reads UltraStar `.txt` files: unversioned, 1.x and 2.x formats.
public enum UltraStarReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        var declared = try declaredEncoding(bytes, assumptions: &assumptions)
        if declared == .utf8, SongTextDecoder.byteOrderMark(bytes) == nil, String(validating: bytes, as: UTF8.self) == nil {
            // Editors re-save files in their own code page and keep the tag.
            let guessed = SongTextDecoder.decode(bytes).encoding
            try assumptions.assume(line: declaredEncodingLine(bytes),
                                   problem: "#ENCODING says UTF-8 but the file is not valid UTF-8",
                                   assumption: "read as \(guessed.rawValue) (guessed from the bytes)")
            declared = guessed
        }
        let text = SongTextDecoder.decode(bytes, declared: declared).text
        return try read(text: text, assumptions: &assumptions)
    }

    public static func read(text: String, path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        return try read(text: text, assumptions: &assumptions)
    }

    static func read(text: String, assumptions: inout ReadingAssumptions) throws(SongFileError) -> Song {
        let path = assumptions.path
        let lines = TextLines.split(text)
        var tags: [UltraStarTag] = []
        var bodyStart = lines.count
        for (i, raw) in lines.enumerated() {
            let line = raw.trimmed
            if line.isEmpty { continue }
            guard line.first == "#" else { bodyStart = i; break }
            guard let colon = line.firstIndex(of: ":") else {
                try assumptions.assume(line: i + 1, problem: "header line '\(UltraStarBodyParser.excerpt(line))' has no ':'",
                                       assumption: "the line is ignored")
                continue
            }
            let key = line[line.index(after: line.startIndex)..<colon].trimmed.uppercased()
            let value = String(line[line.index(after: colon)...].trimmed)
            // An empty key names nothing and an empty value means "absent" (spec §3).
            if key.isEmpty || value.isEmpty { continue }
            tags.append(UltraStarTag(key: key, value: value, line: i + 1))
        }
        let header = try UltraStarHeader(tags: tags, assumptions: &assumptions)
        var parser = UltraStarBodyParser(relative: header.relative)
        let voices = try parser.parse(lines[bodyStart...], assumptions: &assumptions)
        let bodyLine = min(bodyStart + 1, max(lines.count, 1))
        var metadata = header.metadata
        try header.validateRequired(bodyLine: bodyLine, metadata: &metadata, assumptions: &assumptions)
        guard !voices.isEmpty else {
            // Skipped lines are why no note remains: name the first one.
            if let skipped = assumptions.problems.first(where: { ($0.line ?? 0) >= bodyLine }) {
                throw SongFileError(path: path, line: skipped.line, message: "\(skipped.problem) (no notes remain)")
            }
            throw SongFileError(path: path, line: bodyLine, message: "the file has no notes")
        }

        let clock = header.clock
        if let ms = header.medleyStartMs { metadata.medleyStartBeat = Int(clock.beat(atSeconds: ms / 1000).rounded()) }
        if let ms = header.medleyEndMs { metadata.medleyEndBeat = Int(clock.beat(atSeconds: ms / 1000).rounded()) }
        let duet = voices.count > 1
        let parts = voices.keys.sorted().map { n in
            VoicePart(
                name: header.voiceNames[n] ?? (duet ? "P\(n)" : "Solo"),
                lines: lyricLines(voices[n]!, clock: clock))
        }
        return Song(metadata: metadata, parts: parts, beatClock: clock, source: SongSource(path: path, format: .ultraStar),
                    warnings: assumptions.all)
    }

    /// Phrases to timed lines. A line ends at its `-` beat (never before its last note
    /// ends); without one, at the next line's start; the last line at its last note's end.
    static func lyricLines(_ phrases: [UltraStarRawPhrase], clock: BeatClock) -> [LyricLine] {
        var lines: [LyricLine] = []
        for (i, phrase) in phrases.enumerated() {
            let syllables = phrase.notes.map { raw in
                Syllable(text: raw.text, start: clock.seconds(atBeat: raw.note.startBeat),
                         end: clock.seconds(atBeat: raw.note.endBeat), note: raw.note)
            }
            let lastEnd = syllables.map(\.end).max() ?? 0
            var end = lastEnd
            if let beat = phrase.breakBeat {
                end = max(clock.seconds(atBeat: beat), lastEnd)
            } else if i + 1 < phrases.count, let next = phrases[i + 1].notes.first {
                end = max(clock.seconds(atBeat: next.note.startBeat), lastEnd)
            }
            lines.append(LyricLine(start: syllables[0].start, end: end, syllables: syllables))
        }
        return lines
    }

    /// Finds an `#ENCODING` tag in the raw bytes (headers are ASCII in every legacy code page).
    static func declaredEncoding(_ bytes: [UInt8], assumptions: inout ReadingAssumptions) throws(SongFileError) -> SongTextEncoding? {
        if SongTextDecoder.byteOrderMark(bytes) != nil { return nil }
        var lineNumber = 1
        var lineStart = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == 0x0A || bytes[i] == 0x0D {
                let line = bytes[lineStart..<i]
                if let label = encodingLabel(line) {
                    guard let encoding = SongTextEncoding(label: label) else {
                        let known = SongTextEncoding.allCases.map(\.rawValue).joined(separator: ", ")
                        try assumptions.assume(line: lineNumber, problem: "unknown #ENCODING '\(label)' (known: \(known))",
                                               assumption: "the encoding is guessed from the bytes")
                        return nil
                    }
                    return encoding
                }
                // A non-header line ends the header section.
                if let first = line.first(where: { $0 != 0x20 && $0 != 0x09 }), first != 0x23 { return nil }
                if i < bytes.count, bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                lineNumber += 1
                lineStart = i + 1
            }
            i += 1
        }
        return nil
    }

    /// The line of the `#ENCODING` tag, for the warning about it.
    static func declaredEncodingLine(_ bytes: [UInt8]) -> Int? {
        var number = 1
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
            if encodingLabel(bytes[start..<i]) != nil { return number }
            number += 1
            start = i + 1
        }
        return nil
    }

    private static func encodingLabel(_ line: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: line, as: UTF8.self)
        let trimmed = Substring(text).trimmed
        guard trimmed.first == "#", let colon = trimmed.firstIndex(of: ":") else { return nil }
        let key = trimmed[trimmed.index(after: trimmed.startIndex)..<colon].trimmed.uppercased()
        guard key == "ENCODING" else { return nil }
        let value = String(trimmed[trimmed.index(after: colon)...].trimmed)
        return value.isEmpty ? nil : value
    }
}
