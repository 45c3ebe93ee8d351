import Foundation
import SongModel

/// Reads any supported song file, choosing the reader by extension and content.
public enum SongFileReader {
    /// Largest file accepted; real lyric files are a few kB, this guards against pointing at audio.
    public static let maximumFileSize = 8 << 20

    /// Reads the file; leniently (the default) what a player would work around becomes a
    /// warning in `song.warnings`, strictly an error.
    public static func read(path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        let bytes = try readBytes(path: path)
        return try read(bytes: bytes, path: path, mode: mode)
    }

    /// Reads bytes already loaded; `path` decides the format by its extension and names errors.
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        switch SongFileKind.detect(path: path, bytes: bytes) {
        case .ultraStar: return try UltraStarReader.read(bytes: bytes, path: path, mode: mode)
        case .lrc: return try LRCReader.read(bytes: bytes, path: path, mode: mode)
        case .flo: return try FLOReader.read(bytes: bytes, path: path, mode: mode)
        case .jsonCues: return try JSONCueReader.read(bytes: bytes, path: path, mode: mode)
        case .webVTT: return try WebVTTReader.read(bytes: bytes, path: path, mode: mode)
        case .subRip: return try SubRipReader.read(bytes: bytes, path: path, mode: mode)
        case .ass: return try ASSReader.read(bytes: bytes, path: path, mode: mode)
        case .ttml: return try TTMLReader.read(bytes: bytes, path: path, mode: mode)
        case .midi: return try MIDIReader.read(bytes: bytes, path: path, mode: mode)
        case .cdg: return try CDGReader.read(bytes: bytes, path: path, mode: mode)
        case .unsupported(let reason): throw SongFileError(path: path, line: nil, message: reason)
        }
    }

    static func readBytes(path: String) throws(SongFileError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SongFileError(path: path, line: nil, message: "no such file")
        }
        if isDirectory.boolValue { throw SongFileError(path: path, line: nil, message: "is a folder, not a song file") }
        // Devices and pipes (e.g. /dev/zero, a FIFO) would never end or never open: refused.
        let handle = try SafeFile.open(path: path)
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw SongFileError(path: path, line: nil, message: "cannot read the file: \(error.localizedDescription)")
        }
        if data.count > maximumFileSize {
            throw SongFileError(path: path, line: nil, message: "file is over \(maximumFileSize) bytes; a lyric file is at most \(maximumFileSize)")
        }
        return [UInt8](data)
    }
}
