/// A song as the browser sees it: metadata and every part's lines, syllables and notes.
public struct SongPayload: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var artist: String
    /// Seconds of media time.
    public var duration: Double
    public var parts: [PartPayload]
    /// True when any line carries reference notes (note bars can be drawn).
    public var hasNotes: Bool
    /// Background video the views play muted behind the lyrics, when the song has one.
    public var video: BackgroundVideoPayload? = nil
    /// URL of the song's MP3+G graphics (`/media/<token>.cdg`), drawn instead of lyrics.
    public var cdg: String? = nil
    /// URL of the song's background picture (`/media/<token>.jpg`), shown behind the lyrics;
    /// only sent when the song has no video.
    public var background: String? = nil

    public init(id: String, title: String, artist: String, duration: Double, parts: [PartPayload], hasNotes: Bool) {
        self.id = id
        self.title = title
        self.artist = artist
        self.duration = duration
        self.parts = parts
        self.hasNotes = hasNotes
    }
}

/// Where a song's background video is fetched (`/media/<token>.mp4`) and how it lines up:
/// video time = media time + `gap` (UltraStar `#VIDEOGAP`, seconds).
public struct BackgroundVideoPayload: Codable, Sendable, Equatable {
    public var url: String
    public var gap: Double
    public init(url: String, gap: Double) {
        self.url = url
        self.gap = gap
    }
}

public struct PartPayload: Codable, Sendable, Equatable {
    public var name: String
    public var lines: [LinePayload]
    public init(name: String, lines: [LinePayload]) {
        self.name = name
        self.lines = lines
    }
}

public struct LinePayload: Codable, Sendable, Equatable {
    public var index: Int
    public var start: Double
    public var end: Double
    public var text: String
    public var syllables: [SyllablePayload]
    /// The line in another language and in Latin letters, shown under it; never sung or scored.
    public var translation: String?
    public var romanization: String?
    /// Background vocals sung with the line, shown as a second, smaller line.
    public var background: BackgroundLinePayload?
    public init(index: Int, start: Double, end: Double, text: String, syllables: [SyllablePayload],
                translation: String? = nil, romanization: String? = nil, background: BackgroundLinePayload? = nil) {
        self.index = index
        self.start = start
        self.end = end
        self.text = text
        self.syllables = syllables
        self.translation = translation
        self.romanization = romanization
        self.background = background
    }
}

/// Background vocals of a lyric line (TTML `x-bg`): their own timing, text and companions.
public struct BackgroundLinePayload: Codable, Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var syllables: [SyllablePayload]
    public var translation: String?
    public var romanization: String?
    public init(start: Double, end: Double, syllables: [SyllablePayload], translation: String? = nil, romanization: String? = nil) {
        self.start = start
        self.end = end
        self.syllables = syllables
        self.translation = translation
        self.romanization = romanization
    }
}

public struct SyllablePayload: Codable, Sendable, Equatable {
    public var text: String
    public var start: Double
    public var end: Double
    public var note: NotePayload?
    public init(text: String, start: Double, end: Double, note: NotePayload?) {
        self.text = text
        self.start = start
        self.end = end
        self.note = note
    }
}

public struct NotePayload: Codable, Sendable, Equatable {
    /// `normal`, `golden`, `freestyle`, `rap`, `goldenRap`.
    public var kind: String
    /// Reference pitch as a MIDI note number (60 = C4), before the room's key shift.
    public var midi: Int
    public var startBeat: Int
    public var lengthBeats: Int
    public init(kind: String, midi: Int, startBeat: Int, lengthBeats: Int) {
        self.kind = kind
        self.midi = midi
        self.startBeat = startBeat
        self.lengthBeats = lengthBeats
    }
}

/// One entry of the song library (no lyrics), for search and the queue.
public struct SongSummary: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var artist: String
    public var duration: Double?
    public var duet: Bool
    public var hasNotes: Bool
    /// Present when the song could not be read; it cannot be queued.
    public var error: String?
    public var language: String?
    public var year: Int?
    /// The lyric formats this song is available in (`ultraStar`, `lrc` …), when known; one
    /// song shipped in several formats or folders is listed once, `versions` naming the others' ids.
    public var formats: [String]?
    public var versions: [String]?
    /// URL of the song's cover thumbnail, when it has one.
    public var cover: String?
    public init(id: String, title: String, artist: String, duration: Double?, duet: Bool, hasNotes: Bool, error: String?) {
        self.id = id
        self.title = title
        self.artist = artist
        self.duration = duration
        self.duet = duet
        self.hasNotes = hasNotes
        self.error = error
    }
}
