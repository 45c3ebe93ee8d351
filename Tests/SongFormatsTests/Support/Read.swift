import SongFormats
import SongModel

/// Reads inline fixture text as if it were a file with the given name.
func readFixture(_ text: String, name: String = "fixture.txt", mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
    try SongFileReader.read(bytes: Array(text.utf8), path: name, mode: mode)
}

/// The error reading a fixture gives, or nil if it reads.
func readError(_ text: String, name: String = "fixture.txt", mode: SongReadingMode = .lenient) -> SongFileError? {
    readError(bytes: Array(text.utf8), name: name, mode: mode)
}

func readError(bytes: [UInt8], name: String, mode: SongReadingMode = .lenient) -> SongFileError? {
    do {
        _ = try SongFileReader.read(bytes: bytes, path: name, mode: mode)
        return nil
    } catch {
        return error
    }
}

func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
