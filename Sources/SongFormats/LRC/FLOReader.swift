import SongModel

/// `[mm:ss:mss]text` lyric files (a LRC dialect); read by the LRC reader.
public enum FLOReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        try LRCReader.read(bytes: bytes, path: path, mode: mode)
    }
}
