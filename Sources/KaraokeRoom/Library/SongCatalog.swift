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
    /// Background video (absolute path) the views play muted, when the song has one.
    public var videoPath: String?
    /// MP3+G graphics (the `.cdg` file) the views draw instead of lyrics.
    public var cdgPath: String?
    /// Background picture (absolute path) shown behind the lyrics when there is no video.
    public var backgroundPath: String?

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

/// Where the room's songs come from (a folder tree of songs, or a fixed list in tests).
/// The room lists and searches the light `index()`, and reads a song (`entry(id:)`) only
/// when it is queued or played.
public protocol SongCatalog: Sendable {
    /// Every song, read in full (small catalogs, tools).
    func entries() -> [CatalogEntry]
    /// Every song as the library index keeps it.
    func index() -> [IndexedSong]
    /// The same, telling `progress` now and then how many songs were read so far (a big
    /// library read for the first time takes a while; the room serves meanwhile).
    func index(progress: @escaping @Sendable (Int) -> Void) -> [IndexedSong]
    /// One song read in full, or nil when there is no such song.
    func entry(id: String) -> CatalogEntry?
    /// The index again when the songs changed on disk since the last `index()`/`refreshed()`;
    /// nil when nothing changed. Called off the room's queue; may take long.
    func refreshed() -> [IndexedSong]?
    /// The songs folder, for telling a host where a broken song is (paths relative to it);
    /// nil when the songs are not files.
    var libraryRoot: String? { get }
}

extension SongCatalog {
    public func index() -> [IndexedSong] { entries().map { IndexedSong($0) } }
    public func index(progress: @escaping @Sendable (Int) -> Void) -> [IndexedSong] { index() }
    public func entry(id: String) -> CatalogEntry? { entries().first { $0.id == id } }
    public func refreshed() -> [IndexedSong]? { nil }
    public var libraryRoot: String? { nil }
}

/// A fixed list of songs, e.g. built in memory by a test or a tool.
public struct FixedSongCatalog: SongCatalog {
    private let list: [CatalogEntry]
    public let libraryRoot: String?
    /// `libraryRoot`: the folder the entries' paths are in, if they are files.
    public init(_ list: [CatalogEntry], libraryRoot: String? = nil) {
        self.list = list
        self.libraryRoot = libraryRoot
    }
    public func entries() -> [CatalogEntry] { list }
}
