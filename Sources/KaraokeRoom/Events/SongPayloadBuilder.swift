import RoomProtocol
import SongModel

/// Converts the song model into the browser's view of it.
enum SongPayloadBuilder {
    static func payload(for entry: CatalogEntry, song: Song) -> SongPayload {
        SongPayload(
            id: entry.id, title: song.metadata.title, artist: song.metadata.artist,
            duration: duration(of: entry, song: song),
            parts: song.parts.map { part in
                PartPayload(name: part.name, lines: part.lines.enumerated().map { index, line in
                    LinePayload(index: index, start: line.start, end: line.end, text: line.text,
                                syllables: line.syllables.map(syllablePayload),
                                translation: line.companions?.translation, romanization: line.companions?.romanization,
                                background: line.companions?.background.map { background in
                                    BackgroundLinePayload(start: background.start, end: background.end,
                                                          syllables: background.syllables.map(syllablePayload),
                                                          translation: background.translation,
                                                          romanization: background.romanization)
                                })
                })
            },
            hasNotes: song.hasNotes)
    }

    static func syllablePayload(_ syllable: Syllable) -> SyllablePayload {
        SyllablePayload(text: syllable.text, start: syllable.start, end: syllable.end,
                        note: syllable.note.map {
                            NotePayload(kind: $0.kind.rawValue, midi: $0.midi, startBeat: $0.startBeat, lengthBeats: $0.lengthBeats)
                        })
    }

    /// Lyric lines and syllables a song may have: every view gets the whole timeline once,
    /// so a huge lyric file would cost every client megabytes.
    static let maxLines = 2_000
    static let maxSyllables = 20_000

    /// Why the room refuses to offer this song (too large), or nil.
    static func sizeProblem(of entry: CatalogEntry) -> String? {
        guard let song = entry.song else { return nil }
        let lines = song.parts.reduce(0) { $0 + $1.lines.count }
        let file = song.source.path
        if lines > maxLines { return "\(file): \(lines) lyric lines; a song may have at most \(maxLines)" }
        let syllables = song.parts.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.syllables.count } }
        if syllables > maxSyllables { return "\(file): \(syllables) syllables; a song may have at most \(maxSyllables)" }
        return nil
    }

    static func summary(for entry: CatalogEntry) -> SongSummary {
        if let problem = sizeProblem(of: entry) {
            return SongSummary(id: entry.id, title: entry.id, artist: "", duration: nil, duet: false, hasNotes: false,
                               error: problem)
        }
        guard let song = entry.song else {
            return SongSummary(id: entry.id, title: entry.id, artist: "", duration: nil, duet: false, hasNotes: false,
                               error: entry.error ?? "unreadable")
        }
        return SongSummary(id: entry.id, title: song.metadata.title.isEmpty ? entry.id : song.metadata.title,
                           artist: song.metadata.artist, duration: duration(of: entry, song: song),
                           duet: song.isDuet, hasNotes: song.hasNotes, error: nil)
    }

    /// Known track length, else the song's stated end, else the last line's end plus an outro.
    static func duration(of entry: CatalogEntry, song: Song) -> Double {
        if let duration = entry.duration, duration > 0 { return duration }
        if let end = song.metadata.endSeconds, end > 0 { return end }
        if let length = song.metadata.lengthSeconds, length > 0 { return length }
        let lastEnd = song.parts.flatMap(\.lines).map(\.end).max() ?? 0
        return lastEnd + 3
    }
}
