import ArgumentParser
import Foundation
import SongFormats
import SongModel

/// `karaoke songs`: the song library with title, artist, duration, lines, notes and read errors.
struct SongsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "songs",
        abstract: "List the song folders with title, artist, duration, lines, notes and read errors.")

    @Option(name: [.customLong("dir"), .customLong("songs")],
            help: "Songs directory (default: $KARAOKE_SONGS or ./songs).")
    var directory: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let dir = directory ?? SongLibrary.defaultDirectory()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw SongCommandFailure("songs directory '\(dir)' does not exist")
        }
        let entries = SongLibrary(directory: dir).scan()
        if json {
            print(try JSONOutput.string(entries.map(SongSummaryJSON.init)))
            return
        }
        if entries.isEmpty { print("no song folders in \(dir)") }
        for entry in entries {
            let s = SongSummaryJSON(entry)
            let what = entry.song.map { "\($0.metadata.title) — \($0.metadata.artist)" } ?? "(unreadable)"
            let duration = entry.duration.map(formatTime) ?? "-"
            let parts = s.parts.count > 1 ? "  duet: \(s.parts.joined(separator: " / "))" : ""
            print("\(entry.id)\t\(what)\t\(duration)\t\(s.lines) lines\t\(s.notes) notes\(parts)")
            if let error = entry.error { print("  error: \(error)") }
            for warning in entry.warnings { print("  warning: \(warning)") }
        }
    }
}
