import Foundation
import SongFormats

/// The songs of a folder tree, through `SongLibrary` (see `SongLibrary.entries(relative:listing:)`
/// for what a song's id is). Unreadable songs stay listed with their error. The index is cached
/// in `cachePath` (when given) so a restart reads only folders that changed.
public struct DirectorySongCatalog: SongCatalog {
    public struct MissingDirectory: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "songs folder \(path) does not exist" }
    }

    private let library: SongLibrary
    private let requireBackingTrack: Bool
    private let indexer: LibraryIndexer

    /// `requireBackingTrack: false` (no-audio mode) accepts songs whose audio is missing.
    public init(directory: String, requireBackingTrack: Bool = true, cachePath: String? = nil,
                fullWalkInterval: Double = 60) throws {
        self.requireBackingTrack = requireBackingTrack
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MissingDirectory(path: directory)
        }
        library = SongLibrary(directory: directory)
        indexer = LibraryIndexer(library: library, cachePath: cachePath, requireBackingTrack: requireBackingTrack,
                                 fullWalkInterval: fullWalkInterval)
    }

    public func entries() -> [CatalogEntry] {
        library.scan().map { Self.catalogEntry($0, requireBackingTrack: requireBackingTrack) }
    }

    public func index() -> [IndexedSong] { indexer.index() }

    public func index(progress: @escaping @Sendable (Int) -> Void) -> [IndexedSong] { indexer.index(progress: progress) }

    public func refreshed() -> [IndexedSong]? { indexer.refreshed() }

    public func entry(id: String) -> CatalogEntry? {
        library.entry(id: id).map { Self.catalogEntry($0, requireBackingTrack: requireBackingTrack) }
    }

    public var libraryRoot: String? { library.directory }

    /// The last problem with the index cache file, for the log (nil when none).
    public var cacheProblem: String? { indexer.cacheProblem }

    static func catalogEntry(_ entry: SongEntry, requireBackingTrack: Bool) -> CatalogEntry {
        let usable = entry.song != nil && (entry.error == nil || (!requireBackingTrack && entry.backingTrackPath == nil))
        var catalogEntry = CatalogEntry(id: entry.id, song: usable ? entry.song : nil,
                                        error: usable ? nil : entry.error.map { "\($0)" } ?? "no lyric file",
                                        backingTrackPath: entry.backingTrackPath, duration: entry.duration, warnings: entry.warnings)
        catalogEntry.videoPath = entry.videoPath
        catalogEntry.backgroundPath = entry.backgroundPath
        if entry.song?.source.format == .cdg { catalogEntry.cdgPath = entry.lyricsPath }
        return catalogEntry
    }
}
