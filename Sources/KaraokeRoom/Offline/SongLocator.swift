import Foundation
import SongFormats
import SongModel

/// A song named on the command line, read, with the id the library and score store know it by.
public struct LocatedSong: Sendable {
    public var song: Song
    /// The song folder's name (the library id), or `<folder>/<file>` for a song file that is not
    /// its folder's main song (e.g. one of many files in a shared folder).
    public var id: String
    /// The vocal guide track, when the song or its folder has one.
    public var vocalsPath: String?
    /// The song's backing track, when it names one that exists (the bleed reference of `karaoke score`).
    public var backingTrackPath: String?
}

/// Finds the song a command-line argument names: a song file, a song folder, or a library id
/// (a folder under `$KARAOKE_SONGS`, default `songs/`).
public enum SongLocator {
    public static func locate(_ argument: String, library: SongLibrary = SongLibrary(directory: SongLibrary.defaultDirectory())) throws(OfflineScoringError) -> LocatedSong {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue {
            let song: Song
            do { song = try SongFileReader.read(path: argument) } catch { throw .song(error) }
            let (entry, folderName) = folderEntry(of: argument)
            let isMain = entry?.lyricsPath.map(resolved) == resolved(argument)
            let base = ((argument as NSString).lastPathComponent as NSString).deletingPathExtension
            let folder = (standard(argument) as NSString).deletingLastPathComponent
            let named = song.metadata.backingTrackFile.map { $0.hasPrefix("/") ? $0 : (folder as NSString).appendingPathComponent($0) }
            let backing = isMain ? entry?.backingTrackPath : named.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
            return LocatedSong(song: song, id: isMain ? folderName : "\(folderName)/\(base)", vocalsPath: GuideTrackNotes.vocalsPath(of: song),
                               backingTrackPath: backing)
        }
        let entry: SongEntry?
        if exists {
            // A folder named on the command line is taken where it really is: a link the user
            // gave is theirs to follow (links inside the folder still stay inside it).
            let folder = resolved(argument)
            entry = SongLibrary(directory: (folder as NSString).deletingLastPathComponent).entry(id: (folder as NSString).lastPathComponent)
        } else {
            entry = library.entry(id: argument)
        }
        guard let entry else {
            throw .song(SongFileError(path: argument, line: nil, message: "no such song file, song folder or song id in \(library.directory)"))
        }
        guard let song = entry.song else {
            if let error = entry.error { throw .song(error) }
            throw .noSongFile(folder: entry.folder)
        }
        return LocatedSong(song: song, id: entry.id, vocalsPath: entry.vocalsPath, backingTrackPath: entry.backingTrackPath)
    }

    private static func folderEntry(of file: String) -> (SongEntry?, String) {
        let folder = (resolved(file) as NSString).deletingLastPathComponent
        let name = (folder as NSString).lastPathComponent
        return (SongLibrary(directory: (folder as NSString).deletingLastPathComponent).entry(id: name), name)
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: standard(path)).resolvingSymlinksInPath().path
    }

    private static func standard(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (absolute as NSString).standardizingPath
    }
}
