import Scoring
import SongModel

/// Songs built in code, so the rules can be tested without any reader.
enum HandMadeSongs {
    typealias NoteSpec = (kind: NoteKind, start: Int, length: Int, pitch: Int)

    static func song(bpm: Double = 120, gap: Double = 1, parts: [[[NoteSpec]]]) -> Song {
        let clock = BeatClock(bpm: bpm, gapSeconds: gap)
        let voiceParts = parts.enumerated().map { p, lines in
            VoicePart(name: "P\(p + 1)", lines: lines.map { specs in
                let syllables = specs.enumerated().map { i, spec in
                    Syllable(
                        text: i == 0 ? "la" : " la", start: clock.seconds(atBeat: spec.start),
                        end: clock.seconds(atBeat: spec.start + spec.length),
                        note: Note(kind: spec.kind, startBeat: spec.start, lengthBeats: spec.length, pitch: spec.pitch))
                }
                return LyricLine(start: syllables.first!.start, end: syllables.last!.end, syllables: syllables)
            })
        }
        return Song(
            metadata: SongMetadata(title: "Hand made", artist: "Tests"), parts: voiceParts, beatClock: clock,
            source: SongSource(path: "hand-made.txt", format: .ultraStar))
    }

    /// Two lines of normal notes, a golden note and a freestyle note.
    static let solo = song(parts: [[
        [(.normal, 0, 4, 0), (.normal, 4, 4, 2), (.golden, 8, 4, 4)],
        [(.normal, 16, 4, 5), (.freestyle, 20, 4, 7), (.normal, 24, 8, 9)],
    ]])
}

/// A singer rendered straight to pitch samples (no audio), for rule tests.
enum SampleSinger {
    /// Samples every `hop` seconds from 0 to `until`, singing `pitchAt(t)` (nil = silent).
    static func samples(until: Double, hop: Double = 0.01, level: Double = -20, pitchAt: (Double) -> Double?) -> [PitchSample] {
        stride(from: 0.0, to: until, by: hop).map { t in
            let midi = pitchAt(t)
            return PitchSample(time: t, midi: midi, levelDb: midi == nil ? -90 : level)
        }
    }

    /// Sings the part's notes (shifted by `semitones`, `late` seconds late), silent elsewhere.
    static func following(_ song: Song, part: Int = 0, semitones: Double = 0, late: Double = 0) -> [PitchSample] {
        let syllables = song.parts[part].lines.flatMap(\.syllables)
        let end = (syllables.map(\.end).max() ?? 0) + 1
        return samples(until: end) { t in
            let sung = t - late
            guard let s = syllables.first(where: { $0.start <= sung && sung < $0.end }), let note = s.note else { return nil }
            return Double(note.midi) + semitones
        }
    }
}
