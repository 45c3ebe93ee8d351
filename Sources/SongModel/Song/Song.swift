/// A song as every part of the system sees it, whatever file it was read from.
///
/// Times are in seconds of the backing track ("media time"). Where the source
/// format has beats (UltraStar), notes keep their beats too, and `beatClock`
/// converts between the two.
public struct Song: Sendable, Equatable {
    public var metadata: SongMetadata
    /// One part for a solo song, two (or more) for a duet.
    public var parts: [VoicePart]
    /// Present when the song has a beat grid (UltraStar files, derived notes).
    public var beatClock: BeatClock?
    /// Where the song came from, for error messages and for saving derived files.
    public var source: SongSource
    /// What the reader assumed where the file broke its format's rules (empty for a clean file).
    public var warnings: [SongFileWarning]

    public init(metadata: SongMetadata, parts: [VoicePart], beatClock: BeatClock?, source: SongSource,
                warnings: [SongFileWarning] = []) {
        self.metadata = metadata
        self.parts = parts
        self.beatClock = beatClock
        self.source = source
        self.warnings = warnings
    }

    /// True when at least one part carries pitched reference notes.
    public var hasNotes: Bool {
        parts.contains { part in part.lines.contains { line in line.syllables.contains { $0.note != nil } } }
    }

    public var isDuet: Bool { parts.count > 1 }
}

/// Identifies the file a song was read from.
public struct SongSource: Sendable, Equatable {
    public var path: String
    public var format: SongFileFormat

    public init(path: String, format: SongFileFormat) {
        self.path = path
        self.format = format
    }
}

public enum SongFileFormat: String, Sendable, Equatable, CaseIterable {
    case ultraStar
    case lrc
    case jsonCues
    case webVTT
    /// `[mm:ss:mss]text` lines.
    case flo
    /// SubRip `.srt` subtitles.
    case subRip
    /// Timed Text Markup Language (`.ttml`, `.dfxp`, `.xml`), incl. word-timed spans.
    case ttml
    /// Advanced SubStation Alpha / SubStation Alpha (`.ass`, `.ssa`), incl. `{\\k}` syllables.
    case ass
    /// Standard MIDI file / `.kar` karaoke: lyric meta events and the melody track.
    case midi
    /// MP3+G graphics (`.cdg` beside an `.mp3`): pictures drawn in the browser, no text or notes.
    case cdg
}
