import Foundation
import SongFormats

/// The songs of a folder of song folders, through `SongLibrary` (one folder = one song,
/// its name the id). Unreadable songs stay listed with their error.
public struct DirectorySongCatalog: SongCatalog {
    public struct MissingDirectory: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "songs folder \(path) does not exist" }
    }

    private let library: SongLibrary
    private let requireBackingTrack: Bool

    /// `requireBackingTrack: false` (no-audio mode) accepts songs whose audio is missing.
    public init(directory: String, requireBackingTrack: Bool = true) throws {
        self.requireBackingTrack = requireBackingTrack
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MissingDirectory(path: directory)
        }
        library = SongLibrary(directory: directory)
    }

    public func entries() -> [CatalogEntry] {
        library.scan().map { entry in
            let usable = entry.song != nil && (entry.error == nil || (!requireBackingTrack && entry.backingTrackPath == nil))
            return CatalogEntry(id: entry.id, song: usable ? entry.song : nil,
                                error: usable ? nil : entry.error.map { "\($0)" } ?? "no lyric file",
                                backingTrackPath: entry.backingTrackPath, duration: entry.duration, warnings: entry.warnings)
        }
    }
}
