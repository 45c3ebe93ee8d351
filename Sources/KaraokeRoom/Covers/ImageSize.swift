/// An image's width and height read from its header (PNG IHDR, JPEG SOFn marker), so a cover
/// too large to decode safely (a "decompression bomb": a small file of a huge picture) is
/// refused before libgd allocates its pixels. Only the size is read; decoding is libgd's.
enum ImageSize {
    enum Kind { case png, jpeg }

    static func kind(of bytes: [UInt8]) -> Kind? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// Width and height, or nil when the header cannot be read.
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        switch kind(of: bytes) {
        case .png:
            // Signature (8), chunk length (4), "IHDR" (4), then width and height, big-endian.
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
            return (be32(bytes, 16), be32(bytes, 20))
        case .jpeg:
            return jpegSize(bytes)
        case nil:
            return nil
        }
    }

    /// Walks the JPEG markers to the first start-of-frame (SOF0…SOF15 except DHT, JPG, DAC).
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var at = 2
        while at + 9 < bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(bytes[at + 7]) << 8 | Int(bytes[at + 8]), Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]))
            }
            guard length >= 2 else { return nil }
            at += 2 + length
        }
        return nil
    }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
