import SongModel
import SongFormats

/// JSON views of songs for `karaoke songs --json` and `karaoke show --json`.
struct SongSummaryJSON: Encodable {
    var id: String
    var title: String?
    var artist: String?
    var format: String?
    var duration: Double?
    var lines: Int
    var notes: Int
    var parts: [String]
    var lyrics: String?
    var backingTrack: String?
    var vocals: String?
    var cover: String?
    var error: String?

    init(_ entry: SongEntry) {
        id = entry.id
        title = entry.song?.metadata.title
        artist = entry.song?.metadata.artist
        format = entry.song?.source.format.rawValue
        duration = entry.duration
        lines = entry.song?.parts.reduce(0) { $0 + $1.lines.count } ?? 0
        notes = entry.song?.parts.reduce(0) { $0 + $1.notes.count } ?? 0
        parts = entry.song?.parts.map(\.name) ?? []
        lyrics = entry.lyricsPath
        backingTrack = entry.backingTrackPath
        vocals = entry.vocalsPath
        cover = entry.coverPath
        error = entry.error?.description
    }
}

struct SongTimelineJSON: Encodable {
    struct NoteJSON: Encodable {
        var kind: String
        var startBeat: Int
        var lengthBeats: Int
        var pitch: Int
        var midi: Int
        var name: String
    }
    struct SyllableJSON: Encodable {
        var text: String
        var start: Double
        var end: Double
        var note: NoteJSON?
    }
    /// Background vocals: a second line with its own timing, shown, not sung by the part.
    struct BackgroundJSON: Encodable {
        var start: Double
        var end: Double
        var text: String
        var syllables: [SyllableJSON]
        var translation: String?
        var romanization: String?
    }
    struct LineJSON: Encodable {
        var start: Double
        var end: Double
        var text: String
        var syllables: [SyllableJSON]
        /// Shown under the line, never sung (absent when the file has none).
        var translation: String?
        var romanization: String?
        var background: BackgroundJSON?
    }
    struct PartJSON: Encodable {
        var number: Int
        var name: String
        var lines: [LineJSON]
    }

    var title: String
    var artist: String
    var source: String
    var format: String
    var bpm: Double?
    var gapSeconds: Double?
    var audio: String?
    var vocals: String?
    var parts: [PartJSON]

    init(song: Song, parts selected: [Int]) {
        title = song.metadata.title
        artist = song.metadata.artist
        source = song.source.path
        format = song.source.format.rawValue
        bpm = song.beatClock?.bpm
        gapSeconds = song.beatClock?.gapSeconds
        audio = song.metadata.backingTrackFile
        vocals = song.metadata.vocalsFile
        parts = selected.map { i in
            let part = song.parts[i]
            func syllables(_ list: [Syllable]) -> [SyllableJSON] {
                list.map { s in
                    SyllableJSON(text: s.text, start: s.start, end: s.end, note: s.note.map { n in
                        NoteJSON(kind: n.kind.rawValue, startBeat: n.startBeat, lengthBeats: n.lengthBeats,
                                 pitch: n.pitch, midi: n.midi, name: MusicalPitch.name(ofMidi: n.midi))
                    })
                }
            }
            return PartJSON(number: i + 1, name: part.name, lines: part.lines.map { line in
                let companions = line.companions
                return LineJSON(start: line.start, end: line.end, text: line.text, syllables: syllables(line.syllables),
                                translation: companions?.translation, romanization: companions?.romanization,
                                background: companions?.background.map { bg in
                                    BackgroundJSON(start: bg.start, end: bg.end, text: bg.text, syllables: syllables(bg.syllables),
                                                   translation: bg.translation, romanization: bg.romanization)
                                })
            })
        }
    }
}

/// `m:ss.cc` for listings.
func formatTime(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "-" }
    let sign = seconds < 0 ? "-" : ""
    let total = Int((abs(seconds) * 100).rounded())
    let minutes = total / 6000, secs = (total / 100) % 60, centis = total % 100
    return "\(sign)\(minutes):\(secs < 10 ? "0" : "")\(secs).\(centis < 10 ? "0" : "")\(centis)"
}

/// A failure while running a command (not a usage mistake): printed as "Error: …", exit code 1.
struct SongCommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
