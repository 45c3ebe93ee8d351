import SongModel

/// One folder of the song library, read or not.
public struct SongEntry: Sendable, Equatable, Identifiable {
    /// The folder's name: stable, URL-safe enough to select the song by.
    public var id: String
    /// Absolute path of the song folder.
    public var folder: String
    /// The lyric/note file that was read (or failed to read).
    public var lyricsPath: String?
    public var song: Song?
    /// Why the song cannot be used (unreadable lyric file, no audio …).
    public var error: SongFileError?
    public var backingTrackPath: String?
    public var vocalsPath: String?
    public var coverPath: String?
    /// Background video played muted behind the lyrics (`#VIDEO`, `video.*`).
    public var videoPath: String?
    /// Background picture shown behind the lyrics when there is no video (`#BACKGROUND`,
    /// `background.*`, `… [BG].jpg`).
    public var backgroundPath: String?
    /// Length of the backing track from its header, when the format is known (OGG, FLAC, WAV).
    public var duration: Double?
    /// Problems that do not stop the song (a backing track cut short, an unreadable cover).
    public var warnings: [String] = []

    public init(id: String, folder: String, lyricsPath: String? = nil, song: Song? = nil, error: SongFileError? = nil,
                backingTrackPath: String? = nil, vocalsPath: String? = nil, coverPath: String? = nil, duration: Double? = nil) {
        self.id = id
        self.folder = folder
        self.lyricsPath = lyricsPath
        self.song = song
        self.error = error
        self.backingTrackPath = backingTrackPath
        self.vocalsPath = vocalsPath
        self.coverPath = coverPath
        self.duration = duration
    }

    /// True when the song can be played and shown.
    public var isPlayable: Bool { song != nil && error == nil && backingTrackPath != nil }
}
