import ArgumentParser
import Foundation
import SongFormats
import SongModel

/// `karaoke show SONG`: a song's timeline — lines with times, syllables with their notes.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a song's timeline: lines with times, syllables with notes.")

    @Argument(help: "A folder id under the songs directory, a song folder, or a song file.")
    var song: String

    @Option(name: [.customLong("dir"), .customLong("songs")],
            help: "Songs directory for folder ids (default: $KARAOKE_SONGS or ./songs).")
    var directory: String?

    @Option(help: "Only this voice part (1-based).")
    var part: Int?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Hold the file to its format's rules (for song authors): what is otherwise read with a warning is an error.")
    var strict = false

    func run() throws {
        let loaded = try load()
        let indices: [Int]
        if let part {
            guard (1...loaded.parts.count).contains(part) else {
                throw ValidationError("--part \(part): the song has \(loaded.parts.count) part(s)")
            }
            indices = [part - 1]
        } else {
            indices = Array(loaded.parts.indices)
        }
        let view = SongTimelineJSON(song: loaded, parts: indices)
        // Warnings go to stderr so `--json` output stays one JSON document.
        for warning in loaded.warnings {
            FileHandle.standardError.write(Data((warning.description + "\n").utf8))
        }
        if json {
            print(try JSONOutput.string(view))
            return
        }
        print("\(view.title) — \(view.artist)   [\(view.format)] \(view.source)")
        if let bpm = view.bpm, let gap = view.gapSeconds { print("BPM \(bpm)  GAP \(gap) s") }
        for p in view.parts {
            print("\nPart \(p.number): \(p.name)  (\(p.lines.count) lines)")
            for line in p.lines {
                print("[\(formatTime(line.start)) – \(formatTime(line.end))] \(line.text)")
                if let romanization = line.romanization { print("    romanisation: \(romanization)") }
                if let translation = line.translation { print("    translation:  \(translation)") }
                if let bg = line.background {
                    print("    background [\(formatTime(bg.start)) – \(formatTime(bg.end))] \(bg.text)"
                          + (bg.translation.map { " — \($0)" } ?? ""))
                }
                guard line.syllables.count > 1 || line.syllables.first?.note != nil else { continue }
                for s in line.syllables {
                    let note = s.note.map { n in
                        let kind = NoteKind(rawValue: n.kind).map { String($0.symbol) } ?? "?"
                        let pitch = NoteKind(rawValue: n.kind)?.isPitched == true ? n.name : "-"
                        return "\(kind) beat \(n.startBeat)+\(n.lengthBeats) \(pitch)"
                    } ?? ""
                    print("    \(formatTime(s.start))  \(String(format: "%5.2f", s.end - s.start))s  \(note)  '\(s.text)'")
                }
            }
        }
    }

    private func load() throws -> Song {
        var isDir: ObjCBool = false
        let entry: SongEntry?
        if FileManager.default.fileExists(atPath: song, isDirectory: &isDir) {
            if !isDir.boolValue { return try readFile(song) }
            // A folder named on the command line is read where it really is (a link the user gave
            // is theirs to follow; links inside the folder still stay inside it).
            let url = URL(fileURLWithPath: song).standardizedFileURL.resolvingSymlinksInPath()
            entry = SongLibrary(directory: url.deletingLastPathComponent().path).entry(id: url.lastPathComponent)
        } else {
            entry = SongLibrary(directory: directory ?? SongLibrary.defaultDirectory()).entry(id: song)
        }
        // The library reads leniently; an author asking for --strict gets the folder's lyric file read strictly.
        if strict, let path = entry?.lyricsPath { return try readFile(path) }
        return try fromEntry(entry, id: song)
    }

    private func readFile(_ path: String) throws -> Song {
        do {
            return try SongFileReader.read(path: path, mode: strict ? .strict : .lenient)
        } catch {
            throw SongCommandFailure(error.description)
        }
    }

    private func fromEntry(_ entry: SongEntry?, id: String) throws -> Song {
        guard let entry else {
            throw SongCommandFailure("no song '\(id)' (not a file, and no such folder in \(directory ?? SongLibrary.defaultDirectory()))")
        }
        guard let song = entry.song else { throw SongCommandFailure(entry.error?.description ?? "cannot read '\(id)'") }
        return song
    }
}
