/// Descriptive header of a song. File names are relative to the song's folder.
public struct SongMetadata: Sendable, Equatable {
    public var title: String
    public var artist: String
    public var album: String?
    public var language: String?
    public var genre: String?
    public var edition: String?
    public var creator: String?
    public var year: Int?
    /// Backing track (or full mix when no instrumental is given).
    public var audioFile: String?
    /// Isolated vocal guide track, used to derive reference notes.
    public var vocalsFile: String?
    /// Instrumental-only track; preferred over `audioFile` for playback.
    public var instrumentalFile: String?
    public var videoFile: String?
    public var coverFile: String?
    public var backgroundFile: String?
    /// Seconds into the track where singing starts / the song should stop.
    public var startSeconds: Double?
    public var endSeconds: Double?
    public var videoGapSeconds: Double?
    public var previewStartSeconds: Double?
    public var medleyStartBeat: Int?
    public var medleyEndBeat: Int?
    /// Track length when the source states it (LRC `[length:]`).
    public var lengthSeconds: Double?
    /// Format version (`#VERSION`), if stated.
    public var formatVersion: String?
    /// Header tags this program does not interpret, kept as read (upper-cased key).
    public var otherTags: [String: String]

    public init(
        title: String = "", artist: String = "", album: String? = nil, language: String? = nil,
        genre: String? = nil, edition: String? = nil, creator: String? = nil, year: Int? = nil,
        audioFile: String? = nil, vocalsFile: String? = nil, instrumentalFile: String? = nil,
        videoFile: String? = nil, coverFile: String? = nil, backgroundFile: String? = nil,
        startSeconds: Double? = nil, endSeconds: Double? = nil, videoGapSeconds: Double? = nil,
        previewStartSeconds: Double? = nil, medleyStartBeat: Int? = nil, medleyEndBeat: Int? = nil,
        lengthSeconds: Double? = nil, formatVersion: String? = nil, otherTags: [String: String] = [:]
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.language = language
        self.genre = genre
        self.edition = edition
        self.creator = creator
        self.year = year
        self.audioFile = audioFile
        self.vocalsFile = vocalsFile
        self.instrumentalFile = instrumentalFile
        self.videoFile = videoFile
        self.coverFile = coverFile
        self.backgroundFile = backgroundFile
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.videoGapSeconds = videoGapSeconds
        self.previewStartSeconds = previewStartSeconds
        self.medleyStartBeat = medleyStartBeat
        self.medleyEndBeat = medleyEndBeat
        self.lengthSeconds = lengthSeconds
        self.formatVersion = formatVersion
        self.otherTags = otherTags
    }

    /// The file to play as backing track: the instrumental if given, else the main audio.
    public var backingTrackFile: String? { instrumentalFile ?? audioFile }
}
