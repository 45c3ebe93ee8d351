import CSndfile
import Foundation

/// Whole-file audio decoding and encoding through libsndfile
/// (WAV, FLAC, OGG/Vorbis, Opus, MP3 — whatever the installed libsndfile reads).
public struct AudioBuffer: Sendable, Equatable {
    /// Interleaved samples, `frames × channels`, in −1…1.
    public var samples: [Float]
    public var sampleRate: Double
    public var channels: Int

    public init(samples: [Float], sampleRate: Double, channels: Int) {
        precondition(channels > 0, "an audio buffer needs at least one channel")
        self.samples = samples
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var frames: Int { samples.count / channels }
    public var duration: Double { Double(frames) / sampleRate }

    /// The average of all channels.
    public func mono() -> [Float] {
        if channels == 1 { return samples }
        var out = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(channels)
        samples.withUnsafeBufferPointer { src in
            for f in 0..<frames {
                var sum: Float = 0
                for c in 0..<channels { sum += src[f * channels + c] }
                out[f] = sum * scale
            }
        }
        return out
    }

    /// One channel, de-interleaved.
    public func channel(_ index: Int) -> [Float] {
        precondition(index >= 0 && index < channels, "channel \(index) out of range")
        return stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }
}

public struct AudioFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

public enum AudioFileFormat: Sendable {
    case wav16, wavFloat, flac, oggVorbis
    /// Ogg/Opus: libsndfile writes it at 8, 12, 16, 24 or 48 kHz only.
    case oggOpus
    /// MPEG-1/2 Layer III, through libsndfile's LAME encoder.
    case mp3

    var sndfileFormat: Int32 {
        switch self {
        case .wav16: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .wavFloat: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .oggVorbis: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        case .oggOpus: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
        case .mp3: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
        }
    }

    /// Picks the format from a file name's extension (`.wav` → 16-bit PCM).
    public init?(pathExtension ext: String) {
        switch ext.lowercased() {
        case "wav": self = .wav16
        case "flac": self = .flac
        case "ogg", "oga": self = .oggVorbis
        case "opus": self = .oggOpus
        case "mp3": self = .mp3
        default: return nil
        }
    }
}

public enum AudioFile {
    /// Reads and decodes a whole file.
    public static func read(path: String) throws(AudioFileError) -> AudioBuffer {
        var info = SF_INFO()
        let fd = try openRegularFile(path)
        guard let file = sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            close(fd)
            throw AudioFileError(path: path, message: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0 else {
            throw AudioFileError(path: path, message: "no audio channels or sample rate")
        }
        // Some formats (MP3, Opus) report an unknown length: read in chunks.
        var samples: [Float] = []
        if info.frames > 0 && info.frames < Int64(Int32.max) { samples.reserveCapacity(Int(info.frames) * channels) }
        let chunkFrames = 65_536
        var chunk = [Float](repeating: 0, count: chunkFrames * channels)
        while true {
            let got = chunk.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(chunkFrames)) }
            if got <= 0 { break }
            samples.append(contentsOf: chunk[0..<(Int(got) * channels)])
        }
        if sf_error(file) != 0 {
            throw AudioFileError(path: path, message: String(cString: sf_strerror(file)))
        }
        return AudioBuffer(samples: samples, sampleRate: Double(info.samplerate), channels: channels)
    }

    /// A descriptor on the regular file at `path`: opened non-blocking (a FIFO would block a plain
    /// open forever) and checked with `fstat` on that same descriptor before anything reads it.
    static func openRegularFile(_ path: String) throws(AudioFileError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw AudioFileError(path: path, message: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw AudioFileError(path: path, message: "not a regular file (a FIFO, device or folder); it is not opened")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Writes a whole buffer; the format defaults to the one the extension names.
    public static func write(_ buffer: AudioBuffer, to path: String, format: AudioFileFormat? = nil) throws(AudioFileError) {
        let ext = (path as NSString).pathExtension
        guard let format = format ?? AudioFileFormat(pathExtension: ext) else {
            throw AudioFileError(path: path, message: "unknown audio file extension '.\(ext)' (use .wav, .flac or .ogg)")
        }
        var info = SF_INFO()
        info.samplerate = Int32(buffer.sampleRate.rounded())
        info.channels = Int32(buffer.channels)
        info.format = format.sndfileFormat
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioFileError(path: path, message: String(cString: sf_strerror(nil)))
        }
        let written = buffer.samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(buffer.frames)) }
        let closeResult = sf_close(file)
        if written != sf_count_t(buffer.frames) || closeResult != 0 {
            throw AudioFileError(path: path, message: "could not write all \(buffer.frames) frames")
        }
    }
}
