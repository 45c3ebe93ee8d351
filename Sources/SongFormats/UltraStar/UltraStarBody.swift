import SongModel

/// A note as read from the body, with its beat made absolute.
struct UltraStarRawNote {
    var note: Note
    var text: String
    var line: Int
}

/// One phrase of one voice: its notes and the beat of the `-` that closed it, if any.
struct UltraStarRawPhrase {
    var notes: [UltraStarRawNote]
    var breakBeat: Int?
}

/// Reads the body lines (notes, `-` phrase ends, `P` voice changes, `E`) into phrases per voice.
struct UltraStarBodyParser {
    let path: String
    let relative: Bool

    private struct Voice {
        var phrases: [UltraStarRawPhrase] = []
        var current: [UltraStarRawNote] = []
        /// Relative mode: the beat the next numbers count from.
        var rel = 0
        var lastStart: Int?
    }

    private var voices: [Int: Voice] = [:]
    private var voice = 1

    init(path: String, relative: Bool) {
        self.path = path
        self.relative = relative
    }

    private func fail(_ line: Int, _ message: String) -> SongFileError {
        SongFileError(path: path, line: line, message: message)
    }

    /// Parses `lines[start...]`; `lineNumber(i)` gives the 1-based number of `lines[i]`.
    mutating func parse(_ lines: ArraySlice<Substring>) throws(SongFileError) -> [Int: [UltraStarRawPhrase]] {
        for (offset, raw) in lines.enumerated() {
            let number = lines.startIndex + offset + 1
            var line = raw
            while let c = line.first, c == " " || c == "\t" || c == "\u{FEFF}" { line.removeFirst() }
            guard let type = line.first else { continue }
            switch type {
            case ":", "*", "F", "R", "G":
                try parseNote(line, kind: NoteKind(symbol: type)!, number: number)
            case "-":
                try parseBreak(line.dropFirst(), number: number)
            case "P" where line.count > 1 && line.dropFirst().trimmed.allSatisfy({ $0.isASCII && $0.isNumber }):
                let digits = line.dropFirst().trimmed
                guard let n = Int(digits), (1...9).contains(n) else {
                    throw fail(number, "voice change must be P1…P9, found '\(Self.excerpt(line))'")
                }
                voice = n
            case "E" where line.count == 1 || line.dropFirst().first?.isWhitespace == true:
                return finish()
            case "#":
                throw fail(number, "header line '\(Self.excerpt(line))' after the notes began")
            default:
                throw fail(number, "unrecognised line '\(Self.excerpt(line))': expected a note (: * F R G), a phrase end (-), a voice change (P1, P2) or E")
            }
        }
        return finish()
    }

    static func excerpt(_ line: Substring) -> String {
        line.count > 40 ? String(line.prefix(40)) + "…" : String(line)
    }

    private mutating func parseNote(_ line: Substring, kind: NoteKind, number: Int) throws(SongFileError) {
        var scanner = FieldScanner(line.dropFirst())
        let names = ["start beat", "length", "pitch"]
        var values: [Int] = []
        for (i, name) in names.enumerated() {
            let hadSpace = scanner.skipSpaces()
            guard (hadSpace || i == 0), let value = scanner.integer() else {
                throw fail(number, "note: expected \(name), found \(scanner.rest.isEmpty ? "end of line" : "'" + Self.excerpt(scanner.rest) + "'")")
            }
            values.append(value)
        }
        let text: String
        if scanner.rest.isEmpty {
            text = ""
        } else if scanner.rest.first == " " || scanner.rest.first == "\t" {
            text = String(scanner.rest.dropFirst())
        } else {
            throw fail(number, "note: expected a space after the pitch, found '\(Self.excerpt(scanner.rest))'")
        }
        let (start, length, pitch) = (values[0], values[1], values[2])
        if start < 0 { throw fail(number, "note start beat \(start) is negative") }
        if length < 0 { throw fail(number, "note length \(length) is negative") }
        // Mutate in place: copying a Voice out of the dictionary would copy its arrays on every note.
        let absolute = (voices[voice]?.rel ?? 0) + start
        if let last = voices[voice]?.lastStart, absolute < last {
            throw fail(number, "note at beat \(absolute) starts before the previous note (beat \(last)): notes must be in order")
        }
        voices[voice, default: Voice()].lastStart = absolute
        voices[voice, default: Voice()].current.append(UltraStarRawNote(
            note: Note(kind: kind, startBeat: absolute, lengthBeats: length, pitch: pitch), text: text, line: number))
    }

    private mutating func parseBreak(_ rest: Substring, number: Int) throws(SongFileError) {
        var scanner = FieldScanner(rest)
        var values: [Int] = []
        while true {
            _ = scanner.skipSpaces()
            if scanner.rest.isEmpty { break }
            guard values.count < 2, let value = scanner.integer() else {
                throw fail(number, "phrase end: expected up to two beat numbers, found '\(Self.excerpt(scanner.rest))'")
            }
            if value < 0 { throw fail(number, "phrase end beat \(value) is negative") }
            values.append(value)
        }
        let rel = voices[voice]?.rel ?? 0
        let beat = values.first.map { rel + $0 }
        if relative { voices[voice, default: Voice()].rel += values.count > 1 ? values[1] : 0 }
        // A phrase end before any note, or right after another one, closes nothing (spec: MAY ignore).
        if let last = voices[voice]?.current.last {
            // An end placed before the last note began is a typo; keep the phrase, drop the beat.
            let end = beat.flatMap { $0 >= last.note.startBeat ? $0 : nil }
            let notes = voices[voice]!.current
            voices[voice]!.current = []
            voices[voice]!.phrases.append(UltraStarRawPhrase(notes: notes, breakBeat: end))
        }
    }

    private mutating func finish() -> [Int: [UltraStarRawPhrase]] {
        var result: [Int: [UltraStarRawPhrase]] = [:]
        for (n, var v) in voices {
            if !v.current.isEmpty { v.phrases.append(UltraStarRawPhrase(notes: v.current, breakBeat: nil)) }
            if !v.phrases.isEmpty { result[n] = v.phrases }
        }
        return result
    }
}
