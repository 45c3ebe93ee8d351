import SongModel

/// Puts derived notes under a lyrics-only song's lines, giving a song with notes that can be
/// scored and saved as UltraStar. Each note joins the line being shown when it starts; the
/// line's words are spread over its notes (extra notes hold the previous word, `~`).
public enum DerivedSongBuilder {
    /// Notes sung up to this long before a line appears still belong to it (singers come in early).
    static let earlyEntry = 0.25

    public static func song(lyrics: Song, partIndex: Int = 0, notes: [Note], clock: BeatClock, savedAs path: String) -> Song {
        let lines = lyrics.parts.indices.contains(partIndex) ? lyrics.parts[partIndex].lines : []
        var byLine = Array(repeating: [Note](), count: lines.count)
        for note in notes {
            let t = clock.seconds(atBeat: note.startBeat)
            let index = lines.lastIndex { $0.start <= t + earlyEntry } ?? 0
            if lines.indices.contains(index) { byLine[index].append(note) }
        }
        let derivedLines = lines.indices.map { i in
            byLine[i].isEmpty ? lines[i] : line(lines[i], notes: byLine[i], clock: clock)
        }
        var metadata = lyrics.metadata
        metadata.otherTags["COMMENT"] = "notes derived from the vocal guide track by karaoke"
        return Song(
            metadata: metadata, parts: [VoicePart(name: lyrics.parts.indices.contains(partIndex) ? lyrics.parts[partIndex].name : "P1", lines: derivedLines)],
            beatClock: clock, source: SongSource(path: path, format: .ultraStar))
    }

    private static func line(_ line: LyricLine, notes: [Note], clock: BeatClock) -> LyricLine {
        let texts = timedSyllables(line) ? textsByTiming(line, notes: notes, clock: clock) : textsByOrder(line, count: notes.count)
        let syllables = zip(notes, texts).map { note, text in
            Syllable(text: text, start: clock.seconds(atBeat: note.startBeat), end: clock.seconds(atBeat: note.endBeat), note: note)
        }
        let start = min(line.start, syllables.first!.start)
        let end = max(line.end, syllables.last!.end)
        return LyricLine(start: start, end: end, syllables: syllables)
    }

    /// True when the line has word (or syllable) timing, as enhanced LRC does.
    private static func timedSyllables(_ line: LyricLine) -> Bool {
        line.syllables.count > 1
    }

    /// The first syllable starts the line's first note; each later syllable goes to the first
    /// unused note starting within its time span, else joins the previous note's text.
    /// Notes left without text continue the previous syllable (`~`).
    private static func textsByTiming(_ line: LyricLine, notes: [Note], clock: BeatClock) -> [String] {
        var texts = Array(repeating: "~", count: notes.count)
        var lastIndex = -1
        for syllable in line.syllables {
            let index = lastIndex < 0 ? 0 : notes.indices.first { i in
                let t = clock.seconds(atBeat: notes[i].startBeat)
                return i > lastIndex && t >= syllable.start - earlyEntry / 2 && t < syllable.end
            }
            if let index {
                texts[index] = syllable.text
                lastIndex = index
            } else {
                texts[lastIndex] += syllable.text
            }
        }
        return texts
    }

    /// Without timing: words in order, one per note; extra notes hold (`~`), extra words join the last note.
    private static func textsByOrder(_ line: LyricLine, count: Int) -> [String] {
        let words = line.text.split(whereSeparator: \.isWhitespace).map(String.init)
        return (0..<count).map { i in
            if words.isEmpty { return "~" }
            if i == count - 1, words.count > count { return (i > 0 ? " " : "") + words[i...].joined(separator: " ") }
            if i < words.count { return (i > 0 ? " " : "") + words[i] }
            return "~"
        }
    }
}
