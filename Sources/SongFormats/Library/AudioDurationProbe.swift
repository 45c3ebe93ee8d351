import Foundation

/// Reads an audio file's length from its headers without decoding it (OGG Vorbis/Opus,
/// FLAC, WAV), so listing a library stays fast and needs no audio library. A MIDI/KAR song's
/// music is synthesised at load: its length is when its last event sounds.
public enum AudioDurationProbe {
    public static func seconds(path: String) -> Double? {
        // Never a plain open: a FIFO named like audio would block it forever.
        guard let handle = try? SafeFile.open(path: path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
        guard head.count >= 12 else { return nil }
        if head.starts(with: Array("OggS".utf8)) {
            let size = (try? handle.seekToEnd()) ?? 0
            let tailStart = size > 65536 ? size - 65536 : 0
            try? handle.seek(toOffset: tailStart)
            let tail = [UInt8]((try? handle.readToEnd()) ?? Data())
            return ogg(head: head, tail: tail)
        }
        if head.starts(with: Array("fLaC".utf8)) { return flac(head) }
        if head.starts(with: Array("RIFF".utf8)) { return wav(head) }
        if head.starts(with: Array("MThd".utf8)) {
            try? handle.seek(toOffset: 0)
            guard let bytes = try? handle.read(upToCount: maxMIDIBytes), bytes.count < maxMIDIBytes else { return nil }
            return (try? MIDIFile(bytes: [UInt8](bytes)))?.lastEventSeconds
        }
        return nil
    }

    /// Karaoke MIDI files are tens of kilobytes; a bigger one is not read just to list it.
    static let maxMIDIBytes = 8 << 20

    static func le(_ b: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in (0..<count).reversed() { v = v << 8 | UInt64(b[at + i]) }
        return v
    }

    static func ogg(head: [UInt8], tail: [UInt8]) -> Double? {
        guard head.count > 27 else { return nil }
        let segments = Int(head[26])
        let packet = 27 + segments
        guard head.count >= packet + 16 else { return nil }
        let rate: Double
        if head[packet] == 1, Array(head[(packet + 1)..<(packet + 7)]) == Array("vorbis".utf8) {
            rate = Double(le(head, packet + 12, 4))
        } else if Array(head[packet..<(packet + 8)]) == Array("OpusHead".utf8) {
            rate = 48000
        } else {
            return nil
        }
        let magic = Array("OggS".utf8)
        var i = tail.count - 27
        while i >= 0 {
            if tail[i] == magic[0], Array(tail[i..<(i + 4)]) == magic {
                let granule = le(tail, i + 6, 8)
                guard rate > 0, granule != UInt64.max else { return nil }
                return Double(granule) / rate
            }
            i -= 1
        }
        return nil
    }

    static func flac(_ b: [UInt8]) -> Double? {
        guard b.count >= 26 else { return nil }
        let s = 8  // "fLaC" + metadata block header
        let rate = UInt64(b[s + 10]) << 12 | UInt64(b[s + 11]) << 4 | UInt64(b[s + 12]) >> 4
        let total = (UInt64(b[s + 13]) & 0x0F) << 32 | UInt64(b[s + 14]) << 24 | UInt64(b[s + 15]) << 16
            | UInt64(b[s + 16]) << 8 | UInt64(b[s + 17])
        return rate > 0 && total > 0 ? Double(total) / Double(rate) : nil
    }

    static func wav(_ b: [UInt8]) -> Double? {
        var i = 12
        var byteRate: UInt64 = 0
        while i + 8 <= b.count {
            let id = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            let size = le(b, i + 4, 4)
            if id == "fmt ", i + 20 <= b.count { byteRate = le(b, i + 16, 4) }
            if id == "data" { return byteRate > 0 ? Double(size) / Double(byteRate) : nil }
            i += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }
}
