import Foundation
import SongModel

/// Text of a `<p>` (or of its background-vocals span) as parsed: pieces in order, the timed
/// ones from word spans, plus the translation and romanisation spans that go with it.
struct TTMLTextRun {
    /// `begin`/`end` set for text inside a timed span (raw, not yet made absolute); `preserve`
    /// from `xml:space` where the piece began (`TTMLWhitespace`).
    var pieces: [(text: String, begin: Double?, end: Double?, preserve: Bool)] = []
    var translation: String?
    var romanization: String?

    var text: String { pieces.map(\.text).joined() }

    mutating func append(_ text: String, preserve: Bool) {
        if pieces.isEmpty { pieces.append(("", nil, nil, preserve)) }
        pieces[pieces.count - 1].text += text
    }

    /// The run as syllables on absolute times; untimed words before the first span start at `lineStart`.
    func syllables(time: (Double) -> Double, lineStart: Double, lineEnd: Double?) -> [Syllable] {
        var syllables: [Syllable] = []
        var pending = ""  // untimed text before the first word
        for piece in pieces {
            let collapsed = TTMLWhitespace.normalise(piece.text, preserve: piece.preserve)
            guard let b = piece.begin else {
                if syllables.isEmpty { pending += collapsed } else if collapsed.contains(" "), syllables[syllables.count - 1].text.last != " " {
                    syllables[syllables.count - 1].text += " "
                    let rest = collapsed.trimmingCharacters(in: .whitespaces)
                    if !rest.isEmpty { syllables[syllables.count - 1].text += rest + " " }
                } else {
                    syllables[syllables.count - 1].text += collapsed
                }
                continue
            }
            let words = collapsed.trimmingCharacters(in: .whitespaces)
            if words.isEmpty {
                // A space span (`<span begin="0" end="0"> </span>`): a word boundary.
                if collapsed.contains(" "), let last = syllables.indices.last, syllables[last].text.last != " " { syllables[last].text += " " }
                continue
            }
            let start = time(b)
            let stop = piece.end.map(time) ?? start
            if collapsed.first == " ", let last = syllables.indices.last, syllables[last].text.last != " " { syllables[last].text += " " }
            syllables.append(Syllable(text: words + (collapsed.last == " " ? " " : ""), start: start, end: max(start, stop)))
        }
        let lead = pending.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if syllables.isEmpty {
            guard !lead.isEmpty else { return [] }
            let end = lineEnd ?? lineStart
            return [Syllable(text: lead, start: lineStart, end: max(lineStart, end))]
        }
        // Untimed words before the first timed one are sung from the line's start.
        if !lead.isEmpty {
            syllables.insert(Syllable(text: lead + " ", start: lineStart, end: max(lineStart, syllables[0].start)), at: 0)
        }
        while syllables[syllables.count - 1].text.last == " " { syllables[syllables.count - 1].text.removeLast() }
        return syllables
    }
}

/// One `<p>` as parsed: its times, singer, key, the sung run and the background-vocals run.
struct TTMLParagraph {
    var begin: Double?
    var end: Double?
    var agent: String?
    /// `itunes:key` (`L1`, `L2` …): Apple's head translations refer to lines by it.
    var key: String?
    var line: Int
    var main = TTMLTextRun()
    /// The `x-bg` span: its own begin/end (raw) and text.
    var background: (begin: Double?, end: Double?, run: TTMLTextRun)?

    var text: String { main.text }

    /// The line; `headTranslation`/`headRomanization` (Apple's `<iTunesMetadata>`) win over
    /// inline spans, as Apple Music and AMLL read them.
    func lyricLine(headTranslation: String? = nil, headRomanization: String? = nil) -> LyricLine? {
        let timed = main.pieces.filter { $0.begin != nil } + (background?.run.pieces.filter { $0.begin != nil } ?? [])
        guard let pBegin = begin ?? timed.first?.begin else { return nil }
        // Apple writes span times absolute; TTML proper makes them relative to the paragraph.
        let absolute = begin == nil || timed.allSatisfy { $0.begin! >= pBegin - 0.001 && (end == nil || $0.begin! <= end! + 0.001) }
        func time(_ t: Double) -> Double { absolute ? t : pBegin + t }
        let syllables = main.syllables(time: time, lineStart: pBegin, lineEnd: end)
        guard !syllables.isEmpty else { return nil }
        let lineStart = min(syllables[0].start, pBegin)
        let lineEnd = max(end ?? syllables.map(\.end).max() ?? pBegin, syllables.map(\.end).max() ?? pBegin)
        var companions = LineCompanions(translation: Self.shown(headTranslation) ?? Self.shown(main.translation),
                                        romanization: Self.shown(headRomanization) ?? Self.shown(main.romanization))
        if let background {
            let bgStart = background.begin.map(time) ?? lineStart
            let bgSyllables = background.run.syllables(time: time, lineStart: bgStart, lineEnd: background.end.map(time))
            if !bgSyllables.isEmpty {
                let bgEnd = max(background.end.map(time) ?? bgStart, bgSyllables.map(\.end).max() ?? bgStart)
                companions.background = BackgroundLine(start: min(bgStart, bgSyllables[0].start), end: bgEnd, syllables: bgSyllables,
                                                       translation: Self.shown(background.run.translation),
                                                       romanization: Self.shown(background.run.romanization))
            }
        }
        let hasCompanions: Bool = companions.translation != nil || companions.romanization != nil || companions.background != nil
        return LyricLine(start: lineStart, end: lineEnd, syllables: syllables, companions: hasCompanions ? companions : nil)
    }

    /// A translation or romanisation as shown: whitespace collapsed, nil when empty.
    static func shown(_ text: String?) -> String? {
        guard let text else { return nil }
        let shown = TTMLWhitespace.normalise(text, preserve: false).trimmingCharacters(in: .whitespaces)
        return shown.isEmpty ? nil : shown
    }
}
