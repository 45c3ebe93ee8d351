/// The lines one singer sings (a whole solo song, or one side of a duet).
public struct VoicePart: Sendable, Equatable {
    /// Singer name from the file (`#P1`, `#DUETSINGERP1`), or "P1"/"P2"/"Solo".
    public var name: String
    public var lines: [LyricLine]

    public init(name: String, lines: [LyricLine]) {
        self.name = name
        self.lines = lines
    }

    public var notes: [Note] { lines.flatMap { $0.syllables.compactMap(\.note) } }
}

/// One displayed lyric line (an UltraStar phrase, an LRC line, a cue).
public struct LyricLine: Sendable, Equatable {
    /// Seconds of media time when the line begins and ends.
    public var start: Double
    public var end: Double
    /// What the singer sings: the only text scored and highlighted.
    public var syllables: [Syllable]
    /// Lines shown with this one and never sung by its singer: translation, romanisation,
    /// background vocals (TTML `ttm:role` spans). Nil for most formats.
    public var companions: LineCompanions?

    public init(start: Double, end: Double, syllables: [Syllable], companions: LineCompanions? = nil) {
        self.start = start
        self.end = end
        self.syllables = syllables
        self.companions = companions
    }

    /// The line as displayed: syllables joined as written (they carry their own spaces).
    public var text: String { syllables.map(\.text).joined() }
}

/// A piece of lyric text with its own timing: an UltraStar note's syllable,
/// an enhanced-LRC word, or a whole line when the format has no finer timing.
public struct Syllable: Sendable, Equatable {
    public var text: String
    public var start: Double
    public var end: Double
    /// The reference note, when the format has one.
    public var note: Note?

    public init(text: String, start: Double, end: Double, note: Note? = nil) {
        self.text = text
        self.start = start
        self.end = end
        self.note = note
    }
}
