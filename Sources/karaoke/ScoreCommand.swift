import ArgumentParser
import Foundation
import KaraokeRoom
import Scoring
import ScoreStore
import SongModel

extension Difficulty: ExpressibleByArgument {}
extension ScoringMode: ExpressibleByArgument {}
extension PitchToleranceRule: ExpressibleByArgument {}

/// `karaoke score SONG RECORDING.wav`: scores a recorded performance offline with the live engine.
struct ScoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score a recording of a song: per-line scores and ratings, and the total.",
        discussion: """
            The recording is taken to start at the beginning of the backing track. With --tempo r the \
            recording was made while the track played at r× speed, so recording second t is song second t·r. \
            Lyrics-only songs are scored against notes derived from their vocal guide track (saved as \
            <song>.derived.txt), or, without a guide track, get a timing-only participation score.
            The song's backing track, played with the same --key and --tempo, is taken as the reference \
            for the backing that bled into the microphone and is suppressed (--backing FILE names another, \
            --no-backing turns it off); the reference used is named in the output.
            """)

    @Argument(help: "Song file, song folder, or song id in the library.") var song: String
    @Argument(help: "Recorded singing (wav, flac, ogg).") var recording: String
    @Option(help: "Voice part to judge (1-based; duets have 1 and 2).") var part = 1
    @Option(help: "easy, medium or hard (pitch tolerance 2, 1, 0 whole semitones; 2, 1, 0.5 with --tolerance cents).") var difficulty = Difficulty.medium
    @Option(help: "semitones (round to whole semitones first, as UltraStar Deluxe) or cents (exact deviation).") var tolerance = PitchToleranceRule.wholeSemitones
    @Option(help: "ultrastar (all-or-nothing per beat) or practice (credit falls with pitch error).") var mode = ScoringMode.ultraStar
    @Option(parsing: .unconditional, help: "Semitones the backing track was transposed by, e.g. +2 or -3.") var key = "0"
    @Option(help: "Playback speed the recording was made at (1 = original).") var tempo = 1.0
    @Option(name: .customLong("mic-delay"), help: "Microphone delay in milliseconds.") var micDelay = ScoringConfiguration.defaultMicDelay * 1000
    @Option(help: "Backing the recording's bleed is suppressed against (default: the song's own backing track).") var backing: String?
    @Flag(name: .customLong("no-backing"), help: "Analyse the microphone alone (no bleed suppression).") var noBacking = false
    @Flag(name: .customLong("vocal-reduction"),
          help: "The room played the backing vocal-reduced (centre cancelled): the bleed reference is rendered so too.")
    var vocalReduction = false
    @Flag(help: "Print the result as JSON.") var json = false
    @Option(help: "Singer name for --save.") var singer: String?
    @Flag(help: "Save the result in the score database.") var save = false
    /// Where --save stores the result.
    @OptionGroup var scoreStore: ScoreStoreOptions
    @Option(help: ArgumentHelp("Room name saved with the result (default: the host name).", valueName: "NAME")) var room: String?
    @Option(name: .customLong("derived-notes"), help: "Where to save notes derived from a guide track.") var derivedNotes: String?

    func validate() throws {
        guard Int(key) != nil else { throw ValidationError("--key wants whole semitones like +2 or -3, got '\(key)'") }
        guard tempo > 0, tempo.isFinite else { throw ValidationError("--tempo must be a positive number") }
        guard micDelay >= 0, micDelay < 2000 else { throw ValidationError("--mic-delay must be 0…2000 ms") }
        guard part >= 1 else { throw ValidationError("--part counts from 1") }
        guard !(noBacking && backing != nil) else { throw ValidationError("--backing and --no-backing exclude each other") }
    }

    func run() async throws {
        let configuration = ScoringConfiguration(
            difficulty: difficulty, mode: mode, keyShift: Int(key)!, tempo: tempo, micDelay: micDelay / 1000,
            toleranceRule: tolerance)
        let score: OfflineScore
        let located: LocatedSong
        do {
            located = try SongLocator.locate(song)
            score = try OfflineScorer(pitchSource: DetectorPitchSource()).score(
                song: located.song, recordingPath: recording,
                options: OfflineScoringOptions(
                    part: part - 1, configuration: configuration, derivedNotesPath: derivedNotes, vocalsPath: located.vocalsPath,
                    backing: .choose(disabled: noBacking, file: backing, songBacking: located.backingTrackPath,
                                     keySemitones: Int(key)!, tempo: tempo, vocalReduction: vocalReduction)))
        } catch {
            FileHandle.standardError.write("karaoke score: \(error)\n".data(using: .utf8)!)
            throw ExitCode.failure
        }
        var savedId: Int64?
        if save {
            do { savedId = try await store(score, songId: located.id) } catch {
                FileHandle.standardError.write("karaoke score: not saved: \(error)\n".data(using: .utf8)!)
                print(json ? try ScoreReport(score, songId: located.id, savedId: nil).jsonText() : ScoreReport(score, songId: located.id, savedId: nil).text())
                throw ExitCode.failure
            }
        }
        let report = ScoreReport(score, songId: located.id, savedId: savedId)
        print(json ? try report.jsonText() : report.text())
    }

    private func store(_ score: OfflineScore, songId: String) async throws -> Int64 {
        scoreStore.noteOldSpelling(command: "score")
        let store = try ScoreStoreOpening.open(scoreStore.location, room: room ?? ScoreStoreOpening.defaultRoom)
        let id = try await store.begin(PerformanceStart(
            songId: songId, songTitle: score.song.metadata.title,
            singer: singer ?? ProcessInfo.processInfo.environment["USER"] ?? "singer", part: part - 1,
            configuration: score.result.configuration, basis: score.result.basis))
        for line in score.result.lines { try await store.record(line, performance: id, micLost: false) }
        try await store.finish(id, total: score.result.total, status: .complete, at: Date())
        return id
    }
}
