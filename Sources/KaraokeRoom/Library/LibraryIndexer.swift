import Foundation
import SongFormats

/// Builds the index of a song folder tree and keeps it on disk, so a restart reads only the
/// folders that changed: each folder's listing (names, sizes, modification times) is compared
/// with the cached one, and only a folder that differs has its songs read again.
///
/// `refreshed()` notices changes cheaply: it compares every known folder's own modification
/// time (a song added, removed or renamed), and walks the whole tree (catching a lyric file
/// edited in place) at most every `fullWalkInterval` seconds.
final class LibraryIndexer: @unchecked Sendable {
    struct Folder: Codable, Equatable {
        var relative: String
        var listing: FolderListing
        var songs: [IndexedSong]
    }

    struct CacheFile: Codable {
        static let currentVersion = 2
        var version: Int
        var directory: String
        var requireBackingTrack: Bool
        var folders: [Folder]
    }

    let library: SongLibrary
    let cachePath: String?
    let requireBackingTrack: Bool
    let fullWalkInterval: Double
    private let lock = NSLock()
    private var folders: [String: Folder] = [:]
    private var order: [String] = []
    private var rootModified: Int64?
    private var lastFullWalk = 0.0
    private var loadedCache = false
    /// The last problem reading or writing the cache file (the index still works without it).
    private(set) var cacheProblem: String?

    init(library: SongLibrary, cachePath: String?, requireBackingTrack: Bool, fullWalkInterval: Double = 60) {
        self.library = library
        self.cachePath = cachePath
        self.requireBackingTrack = requireBackingTrack
        self.fullWalkInterval = fullWalkInterval
    }

    /// The whole index. At start a readable cache is trusted as it is, so a big library is
    /// ready at once; the first `refreshed()` then walks the tree and reads what changed while
    /// the server was down. Without a cache, every folder is read now.
    /// `progress` hears how many songs were read so far, about 4 times a second, while folders
    /// are read (a first start without a cache); not called when the cache answers.
    func index(progress: (@Sendable (Int) -> Void)? = nil) -> [IndexedSong] {
        lock.withLock {
            if !loadedCache {
                loadedCache = true
                loadCacheLocked()
                if !order.isEmpty {
                    lastFullWalk = 0
                    return songsLocked()
                }
            }
            _ = rebuildLocked(progress: progress)
            return songsLocked()
        }
    }

    /// The index when anything changed since the last call, else nil.
    func refreshed() -> [IndexedSong]? {
        lock.withLock {
            let now = Date().timeIntervalSince1970
            let due = lastFullWalk == 0 || now - lastFullWalk >= fullWalkInterval
            guard due || quickCheckFindsChangeLocked() else { return nil }
            return rebuildLocked() ? songsLocked() : nil
        }
    }

    private func songsLocked() -> [IndexedSong] {
        order.flatMap { folders[$0]?.songs ?? [] }.sorted { $0.id < $1.id }
    }

    /// True when a known folder's (or the library's) own modification time changed.
    private func quickCheckFindsChangeLocked() -> Bool {
        if FolderListing.stamp(library.directory) != rootModified { return true }
        for relative in order where FolderListing.stamp(library.directory + "/" + relative) != folders[relative]?.listing.modified {
            return true
        }
        return false
    }

    /// Walks the tree, reusing unchanged folders; true when anything changed.
    private func rebuildLocked(progress: (@Sendable (Int) -> Void)? = nil) -> Bool {
        if !loadedCache {
            loadedCache = true
            loadCacheLocked()
        }
        lastFullWalk = Date().timeIntervalSince1970
        rootModified = FolderListing.stamp(library.directory)
        var next: [String: Folder] = [:]
        var nextOrder: [String] = []
        var changed = false
        var read = 0
        var lastReport = Date().timeIntervalSince1970
        for (relative, listing) in library.walk() {
            if let known = folders[relative], known.listing == listing {
                next[relative] = known
            } else {
                changed = true
                let songs = library.entries(relative: relative, listing: listing).map { entry in
                    IndexedSong(DirectorySongCatalog.catalogEntry(entry, requireBackingTrack: requireBackingTrack),
                                coverPath: entry.coverPath)
                }
                next[relative] = Folder(relative: relative, listing: listing, songs: songs)
            }
            read += next[relative]?.songs.count ?? 0
            if let progress, Date().timeIntervalSince1970 - lastReport >= 0.25 {
                lastReport = Date().timeIntervalSince1970
                progress(read)
            }
            nextOrder.append(relative)
        }
        if nextOrder.count != order.count || Set(nextOrder) != Set(order) { changed = true }
        folders = next
        order = nextOrder
        if changed || cacheProblem != nil { saveCacheLocked() }
        return changed
    }

    private func loadCacheLocked() {
        guard let cachePath, FileManager.default.fileExists(atPath: cachePath) else { return }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: cachePath))
            let file = try JSONDecoder().decode(CacheFile.self, from: data)
            guard file.version == CacheFile.currentVersion, file.directory == library.directory,
                  file.requireBackingTrack == requireBackingTrack else { return }
            for folder in file.folders { folders[folder.relative] = folder }
            order = file.folders.map(\.relative)
        } catch {
            cacheProblem = "cannot read the library cache \(cachePath): \(error); reading every song folder"
        }
    }

    private func saveCacheLocked() {
        guard let cachePath else { return }
        let file = CacheFile(version: CacheFile.currentVersion, directory: library.directory,
                             requireBackingTrack: requireBackingTrack, folders: order.compactMap { folders[$0] })
        do {
            try JSONEncoder().encode(file).write(to: URL(fileURLWithPath: cachePath), options: .atomic)
            cacheProblem = nil
        } catch {
            cacheProblem = "cannot write the library cache \(cachePath): \(error); the next start reads every song folder again"
        }
    }
}
