import EventServer
import Foundation
import KaraokeRoom
import SongModel

/// A four-line song built in memory: 2 s lines starting at 1, 3.5, 6 and 8.5 s, two
/// syllables each with notes, so tests know exactly which line is current when.
enum TestSong {
    static func make() -> Song {
        let clock = BeatClock(bpm: 300, gapSeconds: 1) // 20 beats per second
        func line(_ startBeat: Int, _ words: [String], pitch: Int) -> LyricLine {
            let syllables = words.enumerated().map { i, word in
                let beat = startBeat + i * 20
                return Syllable(text: word, start: clock.seconds(atBeat: beat), end: clock.seconds(atBeat: beat + 20),
                                note: Note(kind: i == 0 ? .normal : .golden, startBeat: beat, lengthBeats: 20, pitch: pitch + i))
            }
            return LyricLine(start: syllables.first!.start, end: syllables.last!.end, syllables: syllables)
        }
        let lines = [
            line(0, ["Hel", "lo "], pitch: 0),
            line(50, ["sing ", "along "], pitch: 2),
            line(100, ["with ", "me "], pitch: 4),
            line(150, ["to", "night"], pitch: 5),
        ]
        return Song(metadata: SongMetadata(title: "Test Tune", artist: "Swift Tests"),
                    parts: [VoicePart(name: "P1", lines: lines)], beatClock: clock,
                    source: SongSource(path: "memory://test", format: .ultraStar))
    }

    static var catalog: FixedSongCatalog {
        FixedSongCatalog([
            CatalogEntry(id: "test", song: make(), error: nil, backingTrackPath: nil, duration: 12),
            CatalogEntry(id: "second", song: make(), error: nil, backingTrackPath: nil, duration: 12),
            CatalogEntry(id: "broken", song: nil, error: "broken/song.txt:3: missing #BPM", backingTrackPath: nil),
        ])
    }
}
