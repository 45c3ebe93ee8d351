import AudioEngine
import AudioFiles
import Foundation

/// Which backing `karaoke score` takes as the bleed suppressor's reference: the song's own
/// backing track (default), another file (`--backing FILE`) or none (`--no-backing`).
/// The reference is the backing *as the room played it*: rendered through the engine's own
/// renderer (Rubber Band key and tempo change) with the recording's key and tempo, from media
/// time 0 — the recording is taken to start with the track, like the rest of offline scoring —
/// and `lead` (50 ms) ahead of it. The detector's delay estimator aligns the rest: it searches
/// the backing leading the recording by 0–250 ms, so the lead covers a recording started up to
/// 50 ms after the track, and a bleed path up to 200 ms long. Outside that window nothing is
/// suppressed (the score is then what `--no-backing` gives).
public struct BackingReference: Sendable, Equatable, Encodable {
    public enum Origin: String, Sendable, Encodable {
        /// The song's own backing track.
        case song
        /// A file named with `--backing`.
        case file
        /// No reference: the microphone is analysed alone.
        case none
    }

    public var origin: Origin
    public var path: String?
    /// Key and tempo the reference is rendered with (the recording's).
    public var keySemitones: Int
    public var tempo: Double
    /// The room cancelled the centre (vocal reduction): the reference is rendered so too.
    public var vocalReduction = false

    /// How far the reference is taken ahead of the recording's own timeline.
    public static let leadSeconds = 0.05

    public static let none = BackingReference(origin: .none, path: nil, keySemitones: 0, tempo: 1)

    /// `--no-backing` wins, then `--backing FILE`, then the song's own backing track, else none.
    public static func choose(disabled: Bool, file: String?, songBacking: String?, keySemitones: Int, tempo: Double,
                              vocalReduction: Bool = false) -> BackingReference {
        if disabled { return .none }
        var chosen: BackingReference
        if let file {
            chosen = BackingReference(origin: .file, path: file, keySemitones: keySemitones, tempo: tempo)
        } else if let songBacking {
            chosen = BackingReference(origin: .song, path: songBacking, keySemitones: keySemitones, tempo: tempo)
        } else {
            return .none
        }
        chosen.vocalReduction = vocalReduction
        return chosen
    }

    /// The reference at `sampleRate` (nil for `.none`): the mono reference and the played side
    /// (`PlayedBacking.renderChannels`), both from `lead` ahead of the recording.
    func render(sampleRate: Double) throws(OfflineScoringError) -> (mono: [Float], side: [Float])? {
        guard let path else { return nil }
        let track: TrackSource
        do { track = try TrackSource.load(path: path, sampleRate: sampleRate) } catch MIDISynthesizer.RenderError.noSoundFont {
            // A MIDI song without a soundfont plays silent in the room: there is no bleed to remove.
            return nil
        } catch {
            throw .backing(path: path, message: "\(error)")
        }
        let played = PlayedBacking.renderChannels(track, keySemitones: keySemitones, tempo: tempo, vocalReduction: vocalReduction)
        let lead = Int(Self.leadSeconds * sampleRate)
        return (Array(played.reference.dropFirst(lead)), Array(played.side.dropFirst(lead)))
    }
}
