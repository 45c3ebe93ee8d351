import AudioFiles
import Foundation
import Scoring
import SongModel

/// Options of one offline scoring run (what `karaoke score` passes).
public struct OfflineScoringOptions: Sendable {
    /// 0-based voice part.
    public var part: Int
    public var configuration: ScoringConfiguration
    /// Where derived notes of a lyrics-only song are saved; nil = beside the song as `<name>.derived.txt`.
    public var derivedNotesPath: String?
    /// Guide track for a lyrics-only song; nil = look beside the song (`GuideTrackNotes.vocalsPath(of:)`).
    public var vocalsPath: String?
    /// The backing subtracted as bleed (`BackingReference.choose`); `.none` = the mic alone.
    public var backing: BackingReference

    public init(part: Int = 0, configuration: ScoringConfiguration = .init(), derivedNotesPath: String? = nil, vocalsPath: String? = nil,
                backing: BackingReference = .none) {
        self.part = part
        self.configuration = configuration
        self.derivedNotesPath = derivedNotesPath
        self.vocalsPath = vocalsPath
        self.backing = backing
    }
}

/// The outcome of scoring a recording.
public struct OfflineScore: Sendable {
    /// The song judged against: the song itself, or its version with derived notes.
    public var song: Song
    public var result: PerformanceResult
    /// Set when notes were derived from the guide track and saved.
    public var derivedNotesPath: String?
    /// Things the user should know that did not stop scoring.
    public var warnings: [String]
    /// The bleed reference the recording was analysed with.
    public var reference: BackingReference = .none
}

/// Scores a recorded performance with the same `ScoringSession` the live room uses:
/// audio → pitch samples → media time → session.
///
/// The recording is assumed to start at media time 0 and to have been made while the track
/// played at `configuration.tempo`, so recording second `t` is media second `t × tempo`.
/// Mic delay is left in the samples for the session to remove, exactly as live.
public struct OfflineScorer: Sendable {
    public let pitchSource: any PitchSampleSource

    public init(pitchSource: any PitchSampleSource) {
        self.pitchSource = pitchSource
    }

    public func score(song: Song, recordingPath: String, options: OfflineScoringOptions = .init()) throws(OfflineScoringError) -> OfflineScore {
        let recording: AudioBuffer
        do { recording = try AudioFile.read(path: recordingPath) } catch { throw .audio(error) }
        guard recording.frames > 0 else { throw .emptyRecording(path: recordingPath) }
        return try score(song: song, recording: recording, options: options)
    }

    public func score(song: Song, recording: AudioBuffer, options: OfflineScoringOptions = .init()) throws(OfflineScoringError) -> OfflineScore {
        guard options.configuration.tempo > 0 else { throw .invalidOption("tempo must be positive") }
        var judged = song
        var derived = DerivedSongBuilder.isDerived(song)
        var derivedPath: String?
        var warnings: [String] = []
        if !song.hasNotes, let guide = options.vocalsPath ?? GuideTrackNotes.vocalsPath(of: song) {
            let deriver = GuideTrackNotes(pitchSource: pitchSource)
            let outcome = try deriver.derive(song: song, vocalsPath: guide, savingTo: options.derivedNotesPath ?? GuideTrackNotes.defaultOutputPath(for: song))
            judged = outcome.song
            derived = true
            derivedPath = outcome.savedPath
            warnings += outcome.warnings
        }
        var session: ScoringSession
        do {
            session = try ScoringSession(song: judged, partIndex: options.part, configuration: options.configuration, derivedNotes: derived)
        } catch { throw .reference(error) }
        let backing = try options.backing.render(sampleRate: recording.sampleRate)
        session.feed(contentsOf: mediaTimed(pitchSource.pitchSamples(of: recording.mono(), sampleRate: recording.sampleRate,
                                                                     backing: backing?.mono, backingSide: backing?.side),
                                            tempo: options.configuration.tempo))
        let result = session.finish()
        if result.basis == .participation { warnings.append("\(ScoreBasis.participation.explanation).") }
        return OfflineScore(song: judged, result: result, derivedNotesPath: derivedPath, warnings: warnings, reference: options.backing)
    }

    /// Recording seconds → media seconds at the tempo the track played at.
    func mediaTimed(_ samples: [PitchSample], tempo: Double) -> [PitchSample] {
        let clock = MediaClock.recording(tempo: tempo)
        return samples.map { PitchSample(time: clock.mediaTime(atWall: $0.time), midi: $0.midi, levelDb: $0.levelDb) }
    }
}
