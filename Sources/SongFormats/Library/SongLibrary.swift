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

    static let lyricExtensions = ["txt", "lrc", "flo", "vtt", "json", "srt", "ass", "ssa", "ttml", "dfxp", "kar", "mid", "midi", "cdg"]
    static let audioExtensions = ["ogg", "oga", "opus", "flac", "wav", "mp3"]
    static let imageExtensions = ["jpg", "jpeg", "png", "webp"]
    /// Background videos browsers play (`#VIDEO`, or `video.*` in a one-song folder).
    static let videoExtensions = ["mp4", "m4v", "webm", "ogv", "mov", "mkv"]

    public init(directory: String) {
        self.directory = (directory as NSString).standardizingPath
    }

    /// Folders deeper than this below the library are not searched for songs.
    public static let maxDepth = 6

    /// Every song of the tree, sorted by id. Never throws: problems are reported per entry.
    public func scan() -> [SongEntry] {
        walk().flatMap { entries(relative: $0.relative, listing: $0.listing) }.sorted { $0.id < $1.id }
    }

    /// Every folder of the tree below the library (not the library itself), parents before
    /// children, each with its listing. Containers (only sub-folders) are included so a watcher
    /// can notice a song folder appearing in them.
    public func walk() -> [(relative: String, listing: FolderListing)] {
        var found: [(relative: String, listing: FolderListing)] = []
        var pending: [(relative: String, depth: Int)] = (FolderListing.read(directory)?.subfolders ?? []).reversed().map { ($0, 1) }
        while let next = pending.popLast() {
            guard let listing = FolderListing.read(directory + "/" + next.relative) else { continue }
            found.append((next.relative, listing))
            if next.depth < Self.maxDepth {
                pending += listing.subfolders.reversed().map { (next.relative + "/" + $0, next.depth + 1) }
            }
        }
        return found
    }

    /// The songs of one folder: one song (id = the folder's path in the library), or several
    /// when the folder holds lyric files of different names, as UltraStar collections do (id =
    /// folder path + "/" + the file name without extension). Files of one name in several
    /// formats (`demo.txt` + `demo.lrc`) are one song. A folder holding only sub-folders has none.
    public func entries(relative: String, listing: FolderListing) -> [SongEntry] {
        let folder = directory + "/" + relative
        let groups = Self.lyricGroups(listing.fileNames)
        if groups.count > 1 {
            return groups.map { entry(folder: folder, id: relative + "/" + $0, group: $0) }
        }
        if groups.isEmpty, !listing.subfolders.isEmpty, !listing.fileNames.contains(SongManifest.fileName) { return [] }
        return [entry(folder: folder, id: relative)]
    }

    /// Base names of the lyric files (without extension), in order.
    static func lyricGroups(_ files: [String]) -> [String] {
        var seen: [String] = []
        for name in files where name != SongManifest.fileName
            && lyricExtensions.contains((name as NSString).pathExtension.lowercased()) {
            let base = (name as NSString).deletingPathExtension
            if !seen.contains(base) { seen.append(base) }
        }
        return seen
    }

    /// The entry for one song id (see `entries(relative:listing:)`), or nil when there is no
    /// such song. Ids never lead out of the library.
    public func entry(id: String) -> SongEntry? {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard !id.isEmpty, parts.count <= Self.maxDepth + 1,
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.hasPrefix(".") }) else { return nil }
        let path = directory + "/" + id
        // A symbolic link on the way (which the walk never follows) must not lead out of the library.
        guard SafeFile.isInside(path, folder: directory) else { return nil }
        if let listing = FolderListing.read(path) {
            return Self.lyricGroups(listing.fileNames).count > 1 ? nil : entry(folder: path, id: id)
        }
        // A song of a collection folder: "<folder>/<lyric file name without extension>".
        guard parts.count >= 2 else { return nil }
        let folderId = parts.dropLast().joined(separator: "/"), base = String(parts.last!)
        guard let listing = FolderListing.read(directory + "/" + folderId),
              Self.lyricGroups(listing.fileNames).contains(base) else { return nil }
        return entry(folder: directory + "/" + folderId, id: id, group: base)
    }

    /// `group`: in a collection folder, the base name of this song's files (its lyric file,
    /// and by convention its audio and cover); the folder's manifest is not used then.
    func entry(folder: String, id: String, group: String? = nil) -> SongEntry {
        var entry = SongEntry(id: id, folder: folder)
        let listed = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        // In a collection, the other songs' files are not this song's.
        let files = group.map { base in listed.filter { Self.belongs($0, to: base) } } ?? listed
        var manifest: SongManifest?
        if group == nil, files.contains(SongManifest.fileName) {
            let path = (folder as NSString).appendingPathComponent(SongManifest.fileName)
            if let outside = linkOut(path) {
                entry.error = outside
                return entry
            }
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
        guard let lyrics = lyricsName ?? Self.pickLyrics(files, id: (id as NSString).lastPathComponent) else {
            entry.error = SongFileError(path: folder, line: nil, message: "no lyric file (\(Self.lyricExtensions.map { "." + $0 }.joined(separator: ", ")))")
            return entry
        }
        let lyricsPath = (folder as NSString).appendingPathComponent(lyrics)
        entry.lyricsPath = lyricsPath
        if let outside = linkOut(lyricsPath) {
            entry.error = outside
            return entry
        }
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
                // A MIDI/KAR song without a recording plays its own music, synthesised at load.
                ?? (entry.song!.source.format == .midi ? lyricsPath : nil)
            let vocals = try local(manifest?.vocals, from: manifestPath, in: folder)
            let vocalsTag = try local(m.vocalsFile, from: lyricsPath, in: folder)
            entry.vocalsPath = vocals ?? vocalsTag ?? Self.conventional(files, in: folder, prefixes: ["vocals", "voice", "guide"])
            let cover = try local(manifest?.cover, from: manifestPath, in: folder)
            let coverTag = try local(m.coverFile, from: lyricsPath, in: folder)
            entry.coverPath = cover ?? coverTag
                ?? Self.conventional(files, in: folder, prefixes: ["cover", "folder"], extensions: Self.imageExtensions)
                ?? (group == nil ? nil : files.first {
                    // `… [BG].jpg` is the background picture, not the cover.
                    Self.imageExtensions.contains(($0 as NSString).pathExtension.lowercased())
                        && !($0 as NSString).deletingPathExtension.uppercased().hasSuffix("[BG]")
                }.map { (folder as NSString).appendingPathComponent($0) })
            // A file found by its name alone (no tag checked it) may be a link out of the library.
            if let backing = entry.backingTrackPath, let outside = linkOut(backing) {
                entry.backingTrackPath = nil
                throw outside
            }
            if let vocals = entry.vocalsPath, let outside = linkOut(vocals) {
                entry.warnings.append("\(outside); the song plays without its vocal guide")
                entry.vocalsPath = nil
            }
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
        if let cover = entry.coverPath, let outside = linkOut(cover) {
            entry.warnings.append("\(outside); no cover is shown")
            entry.coverPath = nil
        }
        if let cover = entry.coverPath, let kind = SafeFile.irregularKind(path: cover) {
            entry.warnings.append("\(cover): is \(kind), not an image; no cover is shown")
            entry.coverPath = nil
        }
        entry.videoPath = backgroundVideo(named: m.videoFile, lyricsPath: lyricsPath, files: files, folder: folder,
                                          oneSong: group == nil, warnings: &entry.warnings)
        entry.backgroundPath = backgroundImage(named: m.backgroundFile, lyricsPath: lyricsPath, files: files, folder: folder,
                                               oneSong: group == nil, warnings: &entry.warnings)
        if let backing = entry.backingTrackPath {
            entry.duration = AudioDurationProbe.seconds(path: backing)
            entry.warnings += Self.lengthWarnings(backing: backing, duration: entry.duration, song: entry.song!)
        } else {
            let named = m.backingTrackFile.map { " ('\($0)' is not in the folder)" } ?? ""
            entry.error = SongFileError(path: lyricsPath, line: nil, message: "no backing track found\(named)")
        }
        return entry
    }

    /// The song's background video: the file `#VIDEO` names, else `video.*` in a one-song folder,
    /// else a video named like the song in a collection folder (`Artist - Title.mp4`).
    /// A missing or unusable video is a warning (the song plays without it), never an error.
    private func backgroundVideo(named name: String?, lyricsPath: String, files: [String], folder: String, oneSong: Bool,
                                 warnings: inout [String]) -> String? {
        var path: String?
        do {
            path = try local(name, from: lyricsPath, in: folder)
        } catch {
            warnings.append("\(error); no background video")
        }
        if path == nil, let name, !name.isEmpty, !name.contains("://") {
            warnings.append("\(lyricsPath): #VIDEO '\(name)' is not in the folder; no background video")
        }
        if path == nil {
            // In a collection folder `files` are this song's own (`Artist - Title.mp4`).
            path = oneSong ? Self.conventional(files, in: folder, prefixes: ["video"], extensions: Self.videoExtensions)
                : files.first { Self.videoExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    .map { (folder as NSString).appendingPathComponent($0) }
        }
        if let video = path, let outside = linkOut(video) {
            warnings.append("\(outside); no background video")
            return nil
        }
        if let video = path, let kind = SafeFile.irregularKind(path: video) {
            warnings.append("\(video): is \(kind), not a video; no background video")
            return nil
        }
        return path
    }

    /// The song's background picture: the file `#BACKGROUND` names, else `background.*` in a
    /// one-song folder, else `… [BG].jpg` (UltraStar's naming) in either. Like the video, a
    /// missing or unusable picture is a warning, never an error.
    private func backgroundImage(named name: String?, lyricsPath: String, files: [String], folder: String, oneSong: Bool,
                                 warnings: inout [String]) -> String? {
        var path: String?
        do {
            path = try local(name, from: lyricsPath, in: folder)
        } catch {
            warnings.append("\(error); no background picture")
        }
        if path == nil, let name, !name.isEmpty, !name.contains("://") {
            warnings.append("\(lyricsPath): #BACKGROUND '\(name)' is not in the folder; no background picture")
        }
        if let named = path, !Self.imageExtensions.contains((named as NSString).pathExtension.lowercased()) {
            warnings.append("\(lyricsPath): #BACKGROUND '\(name ?? "")' is not a picture (\(Self.imageExtensions.joined(separator: ", "))); no background picture")
            path = nil
        }
        if path == nil {
            path = (oneSong ? Self.conventional(files, in: folder, prefixes: ["background"], extensions: Self.imageExtensions) : nil)
                ?? files.first { name in
                    Self.imageExtensions.contains((name as NSString).pathExtension.lowercased())
                        && (name as NSString).deletingPathExtension.uppercased().hasSuffix("[BG]")
                }.map { (folder as NSString).appendingPathComponent($0) }
        }
        if let picture = path, let outside = linkOut(picture) {
            warnings.append("\(outside); no background picture")
            return nil
        }
        if let picture = path, let kind = SafeFile.irregularKind(path: picture) {
            warnings.append("\(picture): is \(kind), not a picture; no background picture")
            return nil
        }
        return path
    }

    /// `Artist - Title.txt`, `Artist - Title.mp3`, `Artist - Title [CO].jpg` belong to `Artist - Title`.
    static func belongs(_ name: String, to base: String) -> Bool {
        let stem = (name as NSString).deletingPathExtension
        return stem == base || stem.hasPrefix(base + " [") || stem.hasPrefix(base + ".")
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

    /// Why a file the song would use is refused: it resolves (through a symbolic link) outside
    /// the song library. Song packs arrive as archives, which keep links, and whatever the library
    /// uses may be served to every guest. nil when the file is inside.
    private func linkOut(_ path: String) -> SongFileError? {
        guard !SafeFile.isInside(path, folder: directory) else { return nil }
        return SongFileError(path: path, line: nil,
                             message: "is a link to a file outside the song library \(directory); only files inside it are used")
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
