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

    static let lyricExtensions = ["txt", "lrc", "flo", "vtt", "json", "srt", "ass", "ssa", "ttml", "dfxp", "kar", "mid", "midi"]
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
                manifest = try JSONDecoder().decode(SongManifest.self, from: Data(SongFileReader.readBytes(path: path)))
            } catch let error as SongFileError {
                entry.error = error
                return entry
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
        let manifestPath = (folder as NSString).appendingPathComponent(SongManifest.fileName)
        do throws(SongFileError) {
            let audio = try local(manifest?.audio, from: manifestPath, in: folder)
            let mp3 = try local(m.backingTrackFile, from: lyricsPath, in: folder)
            entry.backingTrackPath = audio ?? mp3
                ?? Self.conventional(files, in: folder, prefixes: ["backing", "instrumental", "playback"])
                ?? Self.anyAudio(files, in: folder, excluding: ["vocals", "voice", "guide"])
            let vocals = try local(manifest?.vocals, from: manifestPath, in: folder)
            let vocalsTag = try local(m.vocalsFile, from: lyricsPath, in: folder)
            entry.vocalsPath = vocals ?? vocalsTag ?? Self.conventional(files, in: folder, prefixes: ["vocals", "voice", "guide"])
            let cover = try local(manifest?.cover, from: manifestPath, in: folder)
            let coverTag = try local(m.coverFile, from: lyricsPath, in: folder)
            entry.coverPath = cover ?? coverTag
                ?? Self.conventional(files, in: folder, prefixes: ["cover", "folder"], extensions: Self.imageExtensions)
            // Only regular files are ever opened (a FIFO named backing.ogg would hang whoever opens it).
            for path in [entry.backingTrackPath, entry.vocalsPath].compactMap({ $0 }) {
                if let kind = SafeFile.irregularKind(path: path) {
                    throw SongFileError(path: path, line: nil, message: "is \(kind), not an audio file; it is not opened")
                }
            }
        } catch {
            entry.error = error
            return entry
        }
        if let cover = entry.coverPath, let kind = SafeFile.irregularKind(path: cover) {
            entry.warnings.append("\(cover): is \(kind), not an image; no cover is shown")
            entry.coverPath = nil
        }
        if let backing = entry.backingTrackPath {
            entry.duration = AudioDurationProbe.seconds(path: backing)
            entry.warnings += Self.lengthWarnings(backing: backing, duration: entry.duration, song: entry.song!)
        } else {
            let named = m.backingTrackFile.map { " ('\($0)' is not in the folder)" } ?? ""
            entry.error = SongFileError(path: lyricsPath, line: nil, message: "no backing track found\(named)")
        }
        return entry
    }

    /// A backing track cut short (header against file size), or ending long before the lyrics do.
    static func lengthWarnings(backing: String, duration: Double?, song: Song) -> [String] {
        if let problem = AudioTruncationProbe.problem(path: backing) { return ["\(backing): \(problem)"] }
        let lyricsEnd = song.parts.flatMap(\.lines).map(\.end).max() ?? 0
        if let duration, duration > 0, duration + 1 < lyricsEnd {
            return [String(format: "%@: the track is %.1f s long but the lyrics run to %.1f s (cut short?)", backing, duration, lyricsEnd)]
        }
        return []
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

    /// A file the song names, if it exists locally (URLs are not played). A name that leads out
    /// of the song library (`../../…`, an absolute path, a symbolic link) is refused with the line
    /// of `namedIn` that names it. The library, not the song folder, is the boundary: a duet
    /// folder may use its solo sibling's audio (`#MP3:../demo/backing.ogg`, as songs/demo-duet does).
    private func local(_ name: String?, from namedIn: String, in folder: String) throws(SongFileError) -> String? {
        guard let name, !name.isEmpty, !name.contains("://") else { return nil }
        let path = ((folder as NSString).appendingPathComponent(name) as NSString).standardizingPath
        guard !name.hasPrefix("/"), SafeFile.isInside(path, folder: directory) else {
            throw SongFileError(path: namedIn, line: Self.line(naming: name, in: namedIn),
                                message: "'\(name)' points outside the song library \(directory); only files inside it are played")
        }
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The 1-based line of `file` whose header value (or JSON string) is `name`.
    static func line(naming name: String, in file: String) -> Int? {
        guard let bytes = try? SongFileReader.readBytes(path: file) else { return nil }
        let lines = SongTextDecoder.decode(bytes).text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let index = lines.firstIndex { line in
            guard let colon = line.firstIndex(of: ":") else { return false }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return value == name || value.trimmingCharacters(in: CharacterSet(charactersIn: "\",")) == name
        }
        return index.map { $0 + 1 }
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
