import Foundation
import SongModel

/// The song folders under one directory: `songs/<id>/` holding a lyric/note file, the
/// backing track, and optionally a vocal guide track, a cover and a `song.json` manifest.
///
/// Audio is found first by what the lyric file or manifest names, then by convention
/// (`backing.*`, `instrumental.*`, any other audio file; `vocals.*` for the guide track),
/// so an LRC file next to `backing.ogg` needs no manifest.
public struct SongLibrary: Sendable {
    public let directory: String

    static let lyricExtensions = ["txt", "lrc", "flo", "vtt", "json"]
    static let audioExtensions = ["ogg", "oga", "opus", "flac", "wav", "mp3"]
    static let imageExtensions = ["jpg", "jpeg", "png", "webp"]

    public init(directory: String) {
        self.directory = (directory as NSString).standardizingPath
    }

    /// Every song folder, sorted by id. Never throws: problems are reported per entry.
    public func scan() -> [SongEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            var isDir: ObjCBool = false
            let folder = (directory as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else { return nil }
            return entry(folder: folder, id: name)
        }
    }

    /// The entry for one folder id, or nil when there is no such folder.
    public func entry(id: String) -> SongEntry? {
        guard !id.isEmpty, !id.contains("/"), id != "..", id != "." else { return nil }
        let folder = (directory as NSString).appendingPathComponent(id)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else { return nil }
        return entry(folder: folder, id: id)
    }

    func entry(folder: String, id: String) -> SongEntry {
        var entry = SongEntry(id: id, folder: folder)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var manifest: SongManifest?
        if files.contains(SongManifest.fileName) {
            let path = (folder as NSString).appendingPathComponent(SongManifest.fileName)
            do {
                manifest = try JSONDecoder().decode(SongManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                entry.error = SongFileError(path: path, line: nil, message: "invalid manifest: \(error)")
                return entry
            }
        }
        var lyricsName = manifest?.lyrics
        // A FLO song JSON is also called song.json, with the lyrics inline: it is the lyric file.
        if let inline = lyricsName, inline.contains("\n") || inline.hasPrefix("[") {
            lyricsName = SongManifest.fileName
            manifest = nil
        }
        guard let lyrics = lyricsName ?? Self.pickLyrics(files, id: id) else {
            entry.error = SongFileError(path: folder, line: nil, message: "no lyric file (.txt, .lrc, .vtt or .json)")
            return entry
        }
        let lyricsPath = (folder as NSString).appendingPathComponent(lyrics)
        entry.lyricsPath = lyricsPath
        do {
            var song = try SongFileReader.read(path: lyricsPath)
            if let title = manifest?.title { song.metadata.title = title }
            if let artist = manifest?.artist { song.metadata.artist = artist }
            if song.metadata.title.isEmpty { song.metadata.title = id }
            entry.song = song
        } catch {
            entry.error = error
            return entry
        }
        let m = entry.song!.metadata
        entry.backingTrackPath = local(manifest?.audio ?? m.backingTrackFile, in: folder)
            ?? Self.conventional(files, in: folder, prefixes: ["backing", "instrumental", "playback"])
            ?? Self.anyAudio(files, in: folder, excluding: ["vocals", "voice", "guide"])
        entry.vocalsPath = local(manifest?.vocals ?? m.vocalsFile, in: folder)
            ?? Self.conventional(files, in: folder, prefixes: ["vocals", "voice", "guide"])
        entry.coverPath = local(manifest?.cover ?? m.coverFile, in: folder)
            ?? Self.conventional(files, in: folder, prefixes: ["cover", "folder"], extensions: Self.imageExtensions)
        if let backing = entry.backingTrackPath {
            entry.duration = AudioDurationProbe.seconds(path: backing)
        } else {
            let named = m.backingTrackFile.map { " ('\($0)' is not in the folder)" } ?? ""
            entry.error = SongFileError(path: lyricsPath, line: nil, message: "no backing track found\(named)")
        }
        return entry
    }

    /// UltraStar first (it has notes), then LRC, WebVTT, JSON; a file named like the folder wins a tie.
    static func pickLyrics(_ files: [String], id: String) -> String? {
        for ext in lyricExtensions {
            let candidates = files.filter { ($0 as NSString).pathExtension.lowercased() == ext && $0 != SongManifest.fileName }
            if let same = candidates.first(where: { ($0 as NSString).deletingPathExtension == id }) { return same }
            if let first = candidates.first { return first }
        }
        return nil
    }

    /// A file the song names, if it exists locally (URLs are not played).
    private func local(_ name: String?, in folder: String) -> String? {
        guard let name, !name.isEmpty, !name.contains("://") else { return nil }
        let path = ((folder as NSString).appendingPathComponent(name) as NSString).standardizingPath
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private static func conventional(_ files: [String], in folder: String, prefixes: [String],
                                     extensions: [String] = audioExtensions) -> String? {
        for prefix in prefixes {
            if let hit = files.first(where: {
                ($0 as NSString).deletingPathExtension.lowercased() == prefix
                    && extensions.contains(($0 as NSString).pathExtension.lowercased())
            }) { return (folder as NSString).appendingPathComponent(hit) }
        }
        return nil
    }

    private static func anyAudio(_ files: [String], in folder: String, excluding words: [String]) -> String? {
        files.first { name in
            audioExtensions.contains((name as NSString).pathExtension.lowercased())
                && !words.contains { name.lowercased().contains($0) }
        }.map { (folder as NSString).appendingPathComponent($0) }
    }
}

extension SongLibrary {
    /// Environment variable naming the songs directory.
    public static let environmentKey = "KARAOKE_SONGS"

    /// `$KARAOKE_SONGS` if set and not empty, else `./songs`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment[environmentKey], !dir.isEmpty { return dir }
        return "songs"
    }
}
