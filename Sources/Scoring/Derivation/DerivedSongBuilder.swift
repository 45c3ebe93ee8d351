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
        let words = line.text.split(whereSeparator: \.isWhitespace).map(String.init)
        let syllables = notes.enumerated().map { i, note in
            let text: String
            if words.isEmpty {
                text = "~"
            } else if i == notes.count - 1, words.count > notes.count {
                text = (i > 0 ? " " : "") + words[i...].joined(separator: " ")
            } else if i < words.count {
                text = (i > 0 ? " " : "") + words[i]
            } else {
                text = "~"
            }
            return Syllable(
                text: text, start: clock.seconds(atBeat: note.startBeat),
                end: clock.seconds(atBeat: note.endBeat), note: note)
        }
        let start = min(line.start, syllables.first!.start)
        let end = max(line.end, syllables.last!.end)
        return LyricLine(start: start, end: end, syllables: syllables)
    }
}
