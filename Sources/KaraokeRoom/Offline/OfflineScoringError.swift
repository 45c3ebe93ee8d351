import AudioFiles
import Scoring
import SongModel

/// Why an offline scoring run could not produce a score.
public enum OfflineScoringError: Error, Sendable, CustomStringConvertible {
    case song(SongFileError)
    case audio(AudioFileError)
    case reference(ReferenceError)
    case noSongFile(folder: String)
    case emptyRecording(path: String)
    case invalidOption(String)
    /// The backing reference could not be read.
    case backing(path: String, message: String)

    public var description: String {
        switch self {
        case .song(let error): "\(error)"
        case .audio(let error): "\(error)"
        case .reference(let error): "\(error)"
        case .noSongFile(let folder): "\(folder): no song file (.txt, .lrc, .json, .vtt) in this folder"
        case .emptyRecording(let path): "\(path): the recording has no audio"
        case .invalidOption(let message): message
        case .backing(let path, let message): message.hasPrefix(path) ? "backing reference \(message)" : "backing reference \(path): \(message)"
        }
    }
}
