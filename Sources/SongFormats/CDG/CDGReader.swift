import Foundation
import SongModel

/// Reads an MP3+G graphics file (`.cdg`): 24-byte subcode packets, 300 a second, drawn by the
/// browser (public/js/cdg.js). The file holds pictures, not text, so the song has no lyric
/// lines and no notes: it is shown, not scored. Title and artist come from the file name
/// (`Artist - Title.cdg`), the length from the packet count.
public enum CDGReader {
    public static let packetSize = 24
    public static let packetsPerSecond = 300.0
    /// The CD+G command byte (low 6 bits of byte 0); other packets are empty subcode.
    static let graphicsCommand: UInt8 = 0x09

    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        let packets = bytes.count / packetSize
        guard packets > 0 else {
            throw SongFileError(path: path, line: nil, message: "not a CDG file: \(bytes.count) bytes, less than one \(packetSize)-byte packet")
        }
        if bytes.count % packetSize != 0 {
            try assumptions.assume(line: nil, problem: "the file ends in a partial packet (\(bytes.count % packetSize) of \(packetSize) bytes)",
                                   assumption: "the partial packet is ignored")
        }
        let graphics = stride(from: 0, to: packets * packetSize, by: packetSize).reduce(0) { count, offset in
            count + (bytes[offset] & 0x3F == graphicsCommand ? 1 : 0)
        }
        guard graphics > 0 else {
            throw SongFileError(path: path, line: nil, message: "not a CDG file: none of its \(packets) packets is a CD+G graphics command")
        }
        let (artist, title) = names(fromPath: path)
        var metadata = SongMetadata(title: title, artist: artist)
        metadata.lengthSeconds = Double(packets) / packetsPerSecond
        return Song(metadata: metadata, parts: [VoicePart(name: "CDG", lines: [])], beatClock: nil,
                    source: SongSource(path: path, format: .cdg), warnings: assumptions.warnings)
    }

    /// `Artist - Title.cdg` → ("Artist", "Title"); without ` - `, the whole name is the title.
    static func names(fromPath path: String) -> (artist: String, title: String) {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let dash = stem.range(of: " - ") else { return ("", stem) }
        return (String(stem[..<dash.lowerBound]).trimmingCharacters(in: .whitespaces),
                String(stem[dash.upperBound...]).trimmingCharacters(in: .whitespaces))
    }
}
