import SongModel

/// Writes a song as an unversioned UltraStar `.txt` (the most widely read edition), UTF-8.
///
/// Syllables keep their reference notes; syllables without one (lyrics from LRC, cues)
/// become freestyle notes placed on the beat grid. Songs without a beat grid get a fine
/// one (`#BPM:600`, 25 ms per beat, `#GAP:0`). The song must name its audio for the
/// result to read back (`#MP3` is required).
public enum UltraStarWriter {
    public static let defaultClock = BeatClock(bpm: 600, gapSeconds: 0)

    public static func text(for song: Song) -> String {
        let clock = song.beatClock ?? defaultClock
        var out: [String] = []
        let m = song.metadata
        func tag(_ key: String, _ value: String?) {
            guard let value = value.map(clean), !value.isEmpty else { return }
            out.append("#\(key):\(value)")
        }
        tag("TITLE", m.title.isEmpty ? "Untitled" : m.title)
        tag("ARTIST", m.artist.isEmpty ? "Unknown" : m.artist)
        tag("ALBUM", m.album)
        tag("LANGUAGE", m.language)
        tag("GENRE", m.genre)
        tag("EDITION", m.edition)
        tag("CREATOR", m.creator)
        tag("YEAR", m.year.map(String.init))
        tag("MP3", m.audioFile ?? m.instrumentalFile)
        tag("VOCALS", m.vocalsFile)
        tag("INSTRUMENTAL", m.instrumentalFile)
        tag("VIDEO", m.videoFile)
        tag("COVER", m.coverFile)
        tag("BACKGROUND", m.backgroundFile)
        tag("BPM", number(clock.bpm))
        tag("GAP", number(clock.gapSeconds * 1000))
        tag("VIDEOGAP", m.videoGapSeconds.map(number))
        tag("START", m.startSeconds.map(number))
        tag("END", m.endSeconds.map { number($0 * 1000) })
        tag("PREVIEWSTART", m.previewStartSeconds.map(number))
        tag("MEDLEYSTARTBEAT", m.medleyStartBeat.map(String.init))
        tag("MEDLEYENDBEAT", m.medleyEndBeat.map(String.init))
        if song.isDuet {
            for (i, part) in song.parts.enumerated() where i < 9 { tag("P\(i + 1)", part.name) }
        }
        let reserved: Set<String> = ["VERSION", "ENCODING", "RELATIVE", "AUDIO"]
        for key in m.otherTags.keys.sorted() where !reserved.contains(key) && !UltraStarHeader.knownKeys.contains(key)
            && UltraStarHeader.isVoiceNameKey(key) == nil && !key.contains(":") && !key.isEmpty {
            tag(key, m.otherTags[key])
        }
        for (i, part) in song.parts.prefix(9).enumerated() {
            if song.isDuet { out.append("P\(i + 1)") }
            out += body(of: part, clock: clock)
        }
        out.append("E")
        return out.joined(separator: "\n") + "\n"
    }

    private static func body(of part: VoicePart, clock: BeatClock) -> [String] {
        var out: [String] = []
        var lastStart = 0
        let lines = part.lines.filter { !$0.syllables.isEmpty }
        for (i, line) in lines.enumerated() {
            var lastNote: Note?
            for syllable in line.syllables {
                var note = syllable.note ?? Note(
                    kind: .freestyle, startBeat: beat(syllable.start, clock),
                    lengthBeats: max(1, beat(syllable.end, clock) - beat(syllable.start, clock)), pitch: 0)
                note.startBeat = max(note.startBeat, lastStart)
                note.lengthBeats = max(0, note.lengthBeats)
                lastStart = note.startBeat
                lastNote = note
                out.append("\(note.kind.symbol) \(note.startBeat) \(note.lengthBeats) \(note.pitch) \(clean(syllable.text))")
            }
            if i + 1 < lines.count, let lastNote {
                var end = max(beat(line.end, clock), lastNote.startBeat)
                if let next = lines[i + 1].syllables.first {
                    end = min(end, max(next.note?.startBeat ?? beat(next.start, clock), lastNote.startBeat))
                }
                out.append("- \(end)")
            }
        }
        return out
    }

    private static func beat(_ seconds: Double, _ clock: BeatClock) -> Int {
        let b = clock.beat(atSeconds: seconds).rounded()
        return b.isFinite ? max(0, min(Int(b), SongNumbers.limit)) : 0
    }

    /// Shortest decimal that reads back to the same value, without a trailing ".0".
    static func number(_ value: Double) -> String {
        let rounded = (value * 1e6).rounded() / 1e6
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    private static func clean(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
