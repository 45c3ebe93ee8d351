import SongModel

/// One song the room can offer: readable (with its model) or not (with the reason).
public struct CatalogEntry: Sendable {
    public var id: String
    public var song: Song?
    public var error: String?
    public var backingTrackPath: String?
    /// Track length when known; otherwise the room uses the last lyric line's end.
    public var duration: Double?
    /// Problems that do not stop the song (e.g. a backing track cut short), for the log.
    public var warnings: [String]

    public init(id: String, song: Song?, error: String?, backingTrackPath: String?, duration: Double? = nil,
                warnings: [String] = []) {
        self.id = id
        self.song = song
        self.error = error
        self.backingTrackPath = backingTrackPath
        self.duration = duration
        self.warnings = warnings
    }
}

/// Where the room's songs come from (a folder of song folders, or a fixed list in tests).
public protocol SongCatalog: Sendable {
    func entries() -> [CatalogEntry]
}

/// A fixed list of songs, e.g. built in memory by a test or a tool.
public struct FixedSongCatalog: SongCatalog {
    private let list: [CatalogEntry]
    public init(_ list: [CatalogEntry]) { self.list = list }
    public func entries() -> [CatalogEntry] { list }
}
