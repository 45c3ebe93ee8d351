import CFluidSynth
import Foundation
import Synchronization

/// Renders a Standard MIDI File (`.mid`, `.kar`) to stereo PCM with FluidSynth and a General
/// MIDI soundfont: the backing of a MIDI karaoke song. Offline and as fast as the CPU goes
/// (the player is timed by the samples rendered, not by a clock); never on the audio thread.
public enum MIDISynthesizer {
    public static let extensions = ["mid", "midi", "kar"]

    /// Longest render (a damaged file must not render for ever).
    public static let maxSeconds = 30.0 * 60
    /// Release tail after the last event, trimmed at the first 100 ms below −80 dBFS.
    static let tailSeconds = 3.0

    /// FluidSynth's default gain (0.2) leaves a song near −20 dBFS peak; a backing is played at
    /// the level of a recorded one: peak at −1 dBFS, at most ×10 (a near-silent file stays quiet).
    static let targetPeak: Float = 0.89
    static let maxGain: Float = 10

    static func normalize(_ samples: inout [Float]) {
        let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else { return }
        let gain = min(maxGain, targetPeak / peak)
        for i in samples.indices { samples[i] *= gain }
    }

    public static func isMIDI(path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    public enum RenderError: Error, Sendable, CustomStringConvertible, Equatable {
        /// No soundfont installed: the song can still play its lyrics, without music.
        case noSoundFont
        case failed(path: String, message: String)
        case cancelled(path: String)

        public var description: String {
            switch self {
            case .noSoundFont: SoundFontLocator.missingAdvice
            case .failed(let path, let message): "\(path): \(message)"
            case .cancelled(let path): "\(path): rendering cancelled"
            }
        }
    }

    /// FluidSynth's own messages go to our error only (it would print warnings to stdout).
    private static let quietLogs: Void = {
        for level in [FLUID_WARN, FLUID_INFO, FLUID_DBG] { fluid_set_log_function(Int32(level.rawValue), nil, nil) }
    }()

    /// Renders `path` at `sampleRate` with the soundfont at `soundFont` (default: the installed one).
    public static func render(path: String, sampleRate: Double, soundFont: String? = SoundFontLocator.find(),
                              isCancelled: () -> Bool = { false }) throws(RenderError) -> AudioBuffer {
        guard let soundFont else { throw .noSoundFont }
        _ = quietLogs
        guard let settings = new_fluid_settings() else { throw .failed(path: path, message: "cannot create FluidSynth settings") }
        defer { delete_fluid_settings(settings) }
        fluid_settings_setnum(settings, "synth.sample-rate", sampleRate)
        fluid_settings_setstr(settings, "player.timing-source", "sample")
        fluid_settings_setint(settings, "synth.lock-memory", 0)
        guard let synth = new_fluid_synth(settings) else { throw .failed(path: path, message: "cannot create the synthesiser") }
        defer { delete_fluid_synth(synth) }
        guard fluid_synth_sfload(synth, soundFont, 1) != FLUID_FAILED else {
            throw .failed(path: path, message: "cannot load the soundfont \(soundFont)")
        }
        guard let player = new_fluid_player(synth) else { throw .failed(path: path, message: "cannot create the MIDI player") }
        defer { delete_fluid_player(player) }
        let bytes: Data
        do { bytes = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .failed(path: path, message: "cannot be read (\(error.localizedDescription))")
        }
        let added = bytes.withUnsafeBytes { fluid_player_add_mem(player, $0.baseAddress, $0.count) }
        guard added == FLUID_OK, fluid_player_play(player) == FLUID_OK else {
            throw .failed(path: path, message: "FluidSynth cannot play this MIDI file")
        }
        let block = 4096
        var left = [Float](repeating: 0, count: block), right = left
        var out: [Float] = []
        let limit = Int(maxSeconds * sampleRate)
        var frames = 0
        func write() throws(RenderError) {
            let ok = left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    fluid_synth_write_float(synth, Int32(block), l.baseAddress, 0, 1, r.baseAddress, 0, 1)
                }
            }
            guard ok == FLUID_OK else { throw .failed(path: path, message: "FluidSynth failed while rendering") }
            out.reserveCapacity(out.count + 2 * block)
            for i in 0..<block { out.append(left[i]); out.append(right[i]) }
            frames += block
        }
        while fluid_player_get_status(player) == Int32(FLUID_PLAYER_PLAYING.rawValue), frames < limit {
            if frames % (block * 64) == 0, isCancelled() { throw .cancelled(path: path) }
            try write()
        }
        let end = frames
        for _ in 0..<Int(tailSeconds * sampleRate) / block { try write() }
        // Keep the release until it has faded out.
        let window = Int(0.1 * sampleRate)
        var keep = end
        let threshold: Float = 1e-4
        var f = end
        while f < frames {
            let upTo = min(frames, f + window)
            var loud = false
            for i in f..<upTo where abs(out[2 * i]) > threshold || abs(out[2 * i + 1]) > threshold { loud = true; break }
            if !loud { break }
            f = upTo
            keep = f
        }
        out.removeSubrange((2 * keep)...)
        normalize(&out)
        return AudioBuffer(samples: out, sampleRate: sampleRate, channels: 2)
    }
}
