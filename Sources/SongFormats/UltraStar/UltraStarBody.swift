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
///
/// Leniently (as UltraStar Deluxe does) a line it cannot use is skipped, a negative start is
/// kept, a negative length read as 0, and notes out of order are sorted — or, when a phrase
/// starts again before the voice's first note (two tracks written one after the other, as
/// allkaraoke does), read as the next voice. Each with a warning.
struct UltraStarBodyParser {
    let relative: Bool

    private struct Voice {
        var phrases: [UltraStarRawPhrase] = []
        var current: [UltraStarRawNote] = []
        /// Relative mode: the beat the next numbers count from.
        var rel = 0
        var firstStart: Int?
        var lastStart: Int?
        /// A note went backwards and was kept: phrases are sorted when the voice ends.
        var needsSorting = false
    }

    private var voices: [Int: Voice] = [:]
    private var voice = 1

    init(relative: Bool) {
        self.relative = relative
    }

    /// Parses `lines[start...]`; the 1-based number of `lines[i]` is `i + 1`.
    mutating func parse(_ lines: ArraySlice<Substring>,
                        assumptions: inout ReadingAssumptions) throws(SongFileError) -> [Int: [UltraStarRawPhrase]] {
        for (offset, raw) in lines.enumerated() {
            let number = lines.startIndex + offset + 1
            var line = raw
            while let c = line.first, c == " " || c == "\t" || c == "\u{FEFF}" { line.removeFirst() }
            guard let type = line.first else { continue }
            switch type {
            case ":", "*", "F", "R", "G":
                try parseNote(line, kind: NoteKind(symbol: type)!, number: number, assumptions: &assumptions)
            case "-":
                try parseBreak(line.dropFirst(), number: number, assumptions: &assumptions)
            case "P" where line.count > 1 && line.dropFirst().trimmed.allSatisfy({ $0.isASCII && $0.isNumber }):
                let digits = line.dropFirst().trimmed
                guard let n = Int(digits), (1...9).contains(n) else {
                    try assumptions.assume(line: number, problem: "voice change must be P1…P9, found '\(Self.excerpt(line))'",
                                           assumption: "the line is skipped")
                    continue
                }
                voice = n
            case "E" where line.count == 1 || line.dropFirst().first?.isWhitespace == true:
                return finish(assumptions: &assumptions)
            case "#":
                try assumptions.assume(line: number, problem: "header line '\(Self.excerpt(line))' after the notes began",
                                       assumption: "the line is skipped")
            default:
                try assumptions.assume(
                    line: number,
                    problem: "unrecognised line '\(Self.excerpt(line))': expected a note (: * F R G), a phrase end (-), a voice change (P1, P2) or E",
                    assumption: "the line is skipped")
            }
        }
        return finish(assumptions: &assumptions)
    }

    static func excerpt(_ line: Substring) -> String {
        line.count > 40 ? String(line.prefix(40)) + "…" : String(line)
    }

    private mutating func parseNote(_ line: Substring, kind: NoteKind, number: Int,
                                    assumptions: inout ReadingAssumptions) throws(SongFileError) {
        var scanner = FieldScanner(line.dropFirst())
        let names = ["start beat", "length", "pitch"]
        var values: [Int] = []
        for (i, name) in names.enumerated() {
            let hadSpace = scanner.skipSpaces()
            guard (hadSpace || i == 0), let value = scanner.integer() else {
                try assumptions.assume(
                    line: number,
                    problem: "note: expected \(name), found \(scanner.rest.isEmpty ? "end of line" : "'" + Self.excerpt(scanner.rest) + "'")",
                    assumption: "the note is skipped")
                return
            }
            values.append(value)
        }
        let text: String
        if scanner.rest.isEmpty {
            text = ""
        } else if scanner.rest.first == " " || scanner.rest.first == "\t" {
            text = String(scanner.rest.dropFirst())
        } else {
            try assumptions.assume(line: number, problem: "note: expected a space after the pitch, found '\(Self.excerpt(scanner.rest))'",
                                   assumption: "the rest of the line is the syllable")
            text = String(scanner.rest)
        }
        let (start, pitch) = (values[0], values[2])
        var length = values[1]
        if start < 0 {
            try assumptions.assume(line: number, problem: "note start beat \(start) is negative",
                                   assumption: "the note is kept before beat 0")
        }
        if length < 0 {
            try assumptions.assume(line: number, problem: "note length \(length) is negative", assumption: "read as 0 beats")
            length = 0
        }
        // Mutate in place: copying a Voice out of the dictionary would copy its arrays on every note.
        var absolute = (voices[voice]?.rel ?? 0) + start
        if let last = voices[voice]?.lastStart, absolute < last {
            let problem = "note at beat \(absolute) starts before the previous note (beat \(last)): notes must be in order"
            // Back before the voice's first note after whole phrases: a second track follows the first.
            let hadPhrases = !(voices[voice]?.phrases.isEmpty ?? true)
            if hadPhrases, let first = voices[voice]?.firstStart, absolute <= first, let next = nextFreeVoice() {
                try assumptions.assume(line: number, problem: problem,
                                       assumption: "the notes start over: read from here as voice P\(next)")
                if let open = voices[voice]?.current, !open.isEmpty {
                    voices[voice]!.phrases.append(UltraStarRawPhrase(notes: open, breakBeat: nil))
                    voices[voice]!.current = []
                }
                voice = next
                absolute = start
            } else {
                try assumptions.assume(line: number, problem: problem, assumption: "the notes are sorted by beat")
                voices[voice, default: Voice()].needsSorting = true
            }
        }
        if voices[voice]?.firstStart == nil { voices[voice, default: Voice()].firstStart = absolute }
        voices[voice, default: Voice()].lastStart = max(absolute, voices[voice]?.lastStart ?? absolute)
        voices[voice, default: Voice()].current.append(UltraStarRawNote(
            note: Note(kind: kind, startBeat: absolute, lengthBeats: length, pitch: pitch), text: text, line: number))
    }

    private func nextFreeVoice() -> Int? {
        let next = (voices.keys.max() ?? 0) + 1
        return next <= 9 ? next : nil
    }

    private mutating func parseBreak(_ rest: Substring, number: Int,
                                     assumptions: inout ReadingAssumptions) throws(SongFileError) {
        var scanner = FieldScanner(rest)
        var values: [Int] = []
        while true {
            _ = scanner.skipSpaces()
            if scanner.rest.isEmpty { break }
            guard values.count < 2, let value = scanner.integer() else {
                try assumptions.assume(line: number, problem: "phrase end: expected up to two beat numbers, found '\(Self.excerpt(scanner.rest))'",
                                       assumption: "read as a phrase end without the rest")
                break
            }
            if value < 0 {
                try assumptions.assume(line: number, problem: "phrase end beat \(value) is negative",
                                       assumption: "the phrase ends after its last note")
                values = []
                break
            }
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

    private mutating func finish(assumptions: inout ReadingAssumptions) -> [Int: [UltraStarRawPhrase]] {
        var result: [Int: [UltraStarRawPhrase]] = [:]
        for (n, var v) in voices {
            if !v.current.isEmpty { v.phrases.append(UltraStarRawPhrase(notes: v.current, breakBeat: nil)) }
            if v.needsSorting {
                // Stable sorts: notes within each phrase, then phrases by their first note.
                v.phrases = v.phrases.map { phrase in
                    var sorted = phrase
                    sorted.notes = phrase.notes.enumerated().sorted {
                        ($0.element.note.startBeat, $0.offset) < ($1.element.note.startBeat, $1.offset)
                    }.map(\.element)
                    if let b = sorted.breakBeat, let last = sorted.notes.map(\.note.startBeat).max(), b < last { sorted.breakBeat = nil }
                    return sorted
                }.enumerated().sorted {
                    ($0.element.notes[0].note.startBeat, $0.offset) < ($1.element.notes[0].note.startBeat, $1.offset)
                }.map(\.element)
            }
            if !v.phrases.isEmpty { result[n] = v.phrases }
        }
        return result
    }
}
