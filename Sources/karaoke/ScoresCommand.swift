import ArgumentParser
import Foundation
import KaraokeRoom
import Scoring
import ScoreStore

/// `karaoke scores [SONG]`: leaderboard, or a singer's history and most-missed lines.
struct ScoresCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scores",
        abstract: "Show the leaderboard (per song and difficulty), or a singer's history and most-missed lines.")

    @Argument(help: "Song id (as shown by this command) or a song file/folder; all songs when omitted.") var song: String?
    @Option(help: "Only this difficulty.") var difficulty: Difficulty?
    @Option(help: "Show this singer's history and the lines they miss most.") var singer: String?
    @Option(help: "How many rows.") var limit = 10
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var scoreStore: ScoreStoreOptions

    struct Output: Encodable {
        var leaderboard: [PerformanceRecord]?
        var history: [PerformanceRecord]?
        var mostMissedLines: [MissedLine]?
    }

    func run() async throws {
        do {
            let songId = try song.map(resolveSongId)
            scoreStore.noteOldSpelling(command: "scores")
            let store = try ScoreStoreOpening.open(scoreStore.location, room: ScoreStoreOpening.defaultRoom, readOnly: true)
            var output = Output()
            if let singer {
                output.history = try await store.history(singer: singer, songId: songId, limit: limit)
                output.mostMissedLines = try await store.mostMissedLines(singer: singer, songId: songId, limit: limit)
            } else {
                output.leaderboard = try await store.leaderboard(songId: songId, difficulty: difficulty, since: nil, limit: limit)
            }
            if json {
                print(try JSONOutput.string(output))
            } else {
                print(text(output), terminator: "")
            }
        } catch {
            FileHandle.standardError.write("karaoke scores: \(error)\n".data(using: .utf8)!)
            throw ExitCode.failure
        }
    }

    /// A path to a song becomes that song's id; anything else is taken as an id.
    private func resolveSongId(_ argument: String) throws -> String {
        guard FileManager.default.fileExists(atPath: argument) else { return argument }
        return try SongLocator.locate(argument).id
    }

    private func text(_ output: Output) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var out = ""
        func row(_ rank: Int, _ p: PerformanceRecord) -> String {
            String(format: "%3d  %6d  ", rank, p.total) + p.difficulty.padding(toLength: 7, withPad: " ", startingAt: 0)
                + " " + p.mode.padding(toLength: 10, withPad: " ", startingAt: 0) + " "
                + "\(formatter.string(from: p.startedAt))  \(p.singer) — \(p.songTitle) [\(p.songId)]"
                + (p.room.map { $0.isEmpty ? "" : " @\($0)" } ?? "") + Self.statusNote(p.status) + (p.basis == ScoreBasis.participation.rawValue ? " (participation)" : "") + "\n"
        }
        if let board = output.leaderboard {
            out += "Leaderboard" + (song.map { " for \($0)" } ?? "") + (difficulty.map { " (\($0.rawValue))" } ?? "") + "\n"
            if board.isEmpty { out += "  no complete performances yet\n" }
            for (i, p) in board.enumerated() { out += row(i + 1, p) }
        }
        if let history = output.history {
            out += "History of \(singer ?? "")\n"
            if history.isEmpty { out += "  no performances\n" }
            for (i, p) in history.enumerated() { out += row(i + 1, p) }
        }
        if let missed = output.mostMissedLines, !missed.isEmpty {
            out += "Lines missed most\n"
            for m in missed {
                out += String(format: "  missed %d of %d (avg %3.0f%%)  ", m.misses, m.attempts, m.averagePerfection * 100)
                    + "\(m.songTitle) line \(m.lineIndex + 1): \(m.text.trimmingCharacters(in: .whitespaces))\n"
            }
        }
        return out
    }

    /// How a performance that is not a complete run shows in the history.
    static func statusNote(_ status: PerformanceRecord.Status) -> String {
        switch status {
        case .complete: ""
        case .inProgress: " (unfinished)"
        case .interrupted: " (interrupted: a microphone was lost)"
        }
    }
}
