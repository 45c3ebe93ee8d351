import AudioFiles

/// A backing track decoded whole into memory, resampled to the output rate and split into
/// two channels, so the audio thread only copies from it (no I/O, no allocation).
/// Mono tracks play on both channels; tracks with more channels are folded to stereo.
/// A song without a backing track gets a silent source of the song's length, so the clock runs.
public final class TrackSource: @unchecked Sendable {
    public let path: String?
    public let sampleRate: Double
    /// Frames of real audio (0 for a silent source).
    public let audioFrames: Int
    /// Playable length in frames: at least `audioFrames`, longer when the song's lyrics run on.
    public let frames: Int
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>

    public var duration: Double { Double(frames) / sampleRate }

    /// Decodes `path` (anything libsndfile reads, or a MIDI file: synthesised, see
    /// `MIDISynthesizer`) and resamples it to `sampleRate`. A MIDI file with no soundfont
    /// installed throws `MIDISynthesizer.RenderError.noSoundFont`.
    /// `isCancelled` is asked between the steps and during resampling; when it says yes the
    /// load gives up with `PlaybackError.cancelled` (a newer song load superseded this one).
    public static func load(path: String, sampleRate: Double, minimumDuration: Double = 0,
                            soundFont: String? = SoundFontLocator.find(),
                            isCancelled: () -> Bool = { false }) throws -> TrackSource {
        let decoded: AudioBuffer
        if MIDISynthesizer.isMIDI(path: path) {
            // A MIDI/KAR song's music, synthesised at the output rate (cached for replays).
            do { decoded = try MIDIRenderCache.shared.audio(path: path, sampleRate: sampleRate, soundFont: soundFont, isCancelled: isCancelled) } catch {
                if case .cancelled = error { throw PlaybackError.cancelled(path: path) }
                throw error
            }
        } else {
            decoded = try AudioFile.read(path: path)
        }
        guard decoded.frames > 0 else { throw PlaybackError(path: path, message: "contains no audio frames") }
        guard let buffer = Resampler.resample(decoded, to: sampleRate, isCancelled: isCancelled) else {
            throw PlaybackError.cancelled(path: path)
        }
        let l: [Float], r: [Float]
        switch buffer.channels {
        case 1: l = buffer.samples; r = buffer.samples
        case 2: l = buffer.channel(0); r = buffer.channel(1)
        default:
            // Fold: even channels left, odd channels right (front pairs dominate common layouts).
            var fl = [Float](repeating: 0, count: buffer.frames), fr = fl
            let c = buffer.channels
            for f in 0..<buffer.frames {
                for ch in 0..<c where ch % 2 == 0 { fl[f] += buffer.samples[f * c + ch] }
                for ch in 0..<c where ch % 2 == 1 { fr[f] += buffer.samples[f * c + ch] }
            }
            let scale = 2 / Float(c)
            l = fl.map { $0 * scale }; r = fr.map { $0 * scale }
        }
        return TrackSource(path: path, left: l, right: r, sampleRate: sampleRate, minimumDuration: minimumDuration)
    }

    public init(path: String? = nil, left: [Float], right: [Float], sampleRate: Double, minimumDuration: Double = 0) {
        precondition(left.count == right.count, "channels must have the same length")
        self.path = path
        self.sampleRate = sampleRate
        audioFrames = left.count
        frames = max(left.count, Int((minimumDuration * sampleRate).rounded(.up)))
        self.left = .allocate(capacity: max(1, left.count))
        self.right = .allocate(capacity: max(1, right.count))
        left.withUnsafeBufferPointer { self.left.initialize(from: $0.baseAddress!, count: $0.count) }
        right.withUnsafeBufferPointer { self.right.initialize(from: $0.baseAddress!, count: $0.count) }
    }

    /// A song's backing at `sampleRate`: `path` decoded (or synthesised, for MIDI), or silence
    /// of `duration` seconds when there is none. A MIDI song with no soundfont installed plays
    /// in silence too (its lyrics still show and score), with a warning saying why.
    public static func prepare(backingTrack path: String?, duration: Double, sampleRate: Double,
                               soundFont: String? = SoundFontLocator.find(),
                               isCancelled: () -> Bool = { false }) throws -> (track: TrackSource, warnings: [String]) {
        if let path {
            do {
                return (try load(path: path, sampleRate: sampleRate, minimumDuration: duration, soundFont: soundFont,
                                 isCancelled: isCancelled), [])
            } catch MIDISynthesizer.RenderError.noSoundFont {
                let warning = "\(path): plays without music: \(SoundFontLocator.missingAdvice)"
                return (silence(duration: max(duration, 1), sampleRate: sampleRate), [warning])
            }
        }
        guard duration > 0 else { throw PlaybackError(path: nil, message: "a song without backing track needs a duration > 0") }
        return (silence(duration: duration, sampleRate: sampleRate), [])
    }

    /// A silent track of `duration` seconds.
    public static func silence(duration: Double, sampleRate: Double) -> TrackSource {
        TrackSource(left: [], right: [], sampleRate: sampleRate, minimumDuration: duration)
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// Audio thread: copies `count` frames starting at `frame` (zeros outside the audio).
    func copy(from frame: Int, count: Int, left outL: UnsafeMutablePointer<Float>, right outR: UnsafeMutablePointer<Float>) {
        var written = 0
        if frame < 0 {
            let lead = min(count, -frame)
            outL.update(repeating: 0, count: lead)
            outR.update(repeating: 0, count: lead)
            written = lead
        }
        let start = frame + written
        if written < count && start < audioFrames {
            let n = min(count - written, audioFrames - start)
            (outL + written).update(from: left + start, count: n)
            (outR + written).update(from: right + start, count: n)
            written += n
        }
        if written < count {
            (outL + written).update(repeating: 0, count: count - written)
            (outR + written).update(repeating: 0, count: count - written)
        }
    }
}
