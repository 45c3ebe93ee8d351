import RoomProtocol
import SongModel

/// What the library index keeps of one song: enough to list, search and filter it without
/// reading its lyric file again (that happens only when it is queued or played).
public struct IndexedSong: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var artist: String
    public var language: String?
    public var year: Int?
    public var duet: Bool
    public var duration: Double?
    public var hasNotes: Bool
    /// The lyric file's format (`ultraStar`, `lrc` …); nil when it could not be read.
    public var format: String?
    public var coverPath: String?
    /// Why the song cannot be played; nil when it can.
    public var error: String?
    public var warnings: [String]
    /// Title and artist as search compares them (see `SearchText.fold`), kept in the cache so
    /// a restart need not fold 10,000 titles again; filled in by `LibraryIndex` when missing.
    public var foldedTitle: String?
    public var foldedArtist: String?

    public init(id: String, title: String, artist: String, language: String? = nil, year: Int? = nil, duet: Bool = false,
                duration: Double? = nil, hasNotes: Bool = false, format: String? = nil, coverPath: String? = nil,
                error: String? = nil, warnings: [String] = []) {
        self.id = id
        self.title = title
        self.artist = artist
        self.language = language
        self.year = year
        self.duet = duet
        self.duration = duration
        self.hasNotes = hasNotes
        self.format = format
        self.coverPath = coverPath
        self.error = error
        self.warnings = warnings
        foldedTitle = SearchText.fold(title)
        foldedArtist = SearchText.fold(artist)
    }

    /// From a catalog entry (its song already read).
    public init(_ entry: CatalogEntry, coverPath: String? = nil) {
        let summary = SongPayloadBuilder.summary(for: entry)
        let metadata = entry.song?.metadata
        self.init(id: entry.id, title: summary.title, artist: summary.artist, language: metadata?.language,
                  year: metadata?.year, duet: summary.duet, duration: summary.duration, hasNotes: summary.hasNotes,
                  format: entry.song?.source.format.rawValue, coverPath: coverPath, error: summary.error,
                  warnings: entry.warnings)
    }

    var summary: SongSummary {
        var summary = SongSummary(id: id, title: title, artist: artist, duration: duration, duet: duet, hasNotes: hasNotes,
                                  error: error)
        summary.language = language
        summary.year = year
        summary.formats = format.map { [$0] }
        return summary
    }
}
