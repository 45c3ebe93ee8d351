import Foundation

/// Notices an audio file that was cut short, from its headers and size alone (no decoding,
/// so listing a library stays fast): a truncated track otherwise plays a few seconds and stops
/// without a word while the lyrics run on.
public enum AudioTruncationProbe {
    /// Why `path` looks cut short, or nil when nothing says so.
    public static func problem(path: String) -> String? {
        guard let handle = try? SafeFile.open(path: path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
        let size = (try? handle.seekToEnd()) ?? 0
        guard head.count >= 12 else { return nil }
        if head.starts(with: Array("RIFF".utf8)) { return wav(head, fileSize: size) }
        if head.starts(with: Array("OggS".utf8)) {
            let tailStart = size > 65536 ? size - 65536 : 0
            try? handle.seek(toOffset: tailStart)
            return ogg(tail: [UInt8]((try? handle.readToEnd()) ?? Data()))
        }
        return nil
    }

    /// The `data` chunk's declared length against the bytes really in the file.
    static func wav(_ b: [UInt8], fileSize: UInt64) -> String? {
        var i = 12
        var byteRate: UInt64 = 0
        while i + 8 <= b.count {
            let id = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            let size = AudioDurationProbe.le(b, i + 4, 4)
            if id == "fmt ", i + 20 <= b.count { byteRate = AudioDurationProbe.le(b, i + 16, 4) }
            if id == "data" {
                let present = fileSize > UInt64(i + 8) ? fileSize - UInt64(i + 8) : 0
                // 0 and sizes near 2³¹ or 2³² are placeholders of a WAV written to a pipe (espeak-ng
                // --stdout writes 0x7FFFF000), "length unknown", not a promise.
                guard size != 0, size < 0x7FFF_F000, present < size, byteRate > 0 else { return nil }
                return String(format: "the file is cut short: its header promises %.1f s of audio, the file holds %.1f s",
                              Double(size) / Double(byteRate), Double(present) / Double(byteRate))
            }
            i += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }

    /// A complete Ogg stream ends with a page flagged end-of-stream; a cut one does not.
    static func ogg(tail: [UInt8]) -> String? {
        let magic = Array("OggS".utf8)
        var i = tail.count - 27
        while i >= 0 {
            if tail[i] == magic[0], Array(tail[i..<(i + 4)]) == magic, tail[i + 4] == 0 {
                return tail[i + 5] & 0x04 != 0 ? nil : "the file is cut short: its Ogg stream stops without an end-of-stream page"
            }
            i -= 1
        }
        return nil
    }
}
