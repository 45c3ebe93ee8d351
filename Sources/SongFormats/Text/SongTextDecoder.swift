/// Turns the bytes of a song file into text.
///
/// Order of evidence: a byte-order mark (UTF-8, UTF-16 and UTF-32, LE and BE), then an encoding the caller found declared in
/// the file (UltraStar `#ENCODING`), then UTF-32 or UTF-16 without a mark (zero bytes in
/// their places), then valid UTF-8, then a guess among the 8-bit
/// code pages old song files use (see `LegacyEncodingGuess`). Decoding never fails:
/// every byte sequence maps to some text.
public enum SongTextDecoder {
    public struct Result: Sendable, Equatable {
        public var text: String
        public var encoding: SongTextEncoding

        public init(text: String, encoding: SongTextEncoding) {
            self.text = text
            self.encoding = encoding
        }
    }

    /// The encoding announced by a byte-order mark, and the mark's length.
    public static func byteOrderMark(_ bytes: [UInt8]) -> (SongTextEncoding, Int)? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
        // UTF-32 LE's mark starts like UTF-16 LE's: checked first.
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0, bytes[3] == 0 { return (.utf32LE, 4) }
        if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 0xFE, bytes[3] == 0xFF { return (.utf32BE, 4) }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 2) }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 2) }
        return nil
    }

    /// Decodes `bytes`; `declared` is used when there is no byte-order mark.
    public static func decode(_ bytes: [UInt8], declared: SongTextEncoding? = nil) -> Result {
        if let (encoding, length) = byteOrderMark(bytes) {
            return Result(text: decode(bytes[length...], as: encoding), encoding: encoding)
        }
        let encoding = declared ?? detect(bytes)
        return Result(text: decode(bytes[...], as: encoding), encoding: encoding)
    }

    /// Best guess for bytes without a byte-order mark or declaration.
    static func detect(_ bytes: [UInt8]) -> SongTextEncoding {
        if let wide = LegacyEncodingGuess.unmarkedUTF32(bytes) ?? LegacyEncodingGuess.unmarkedUTF16(bytes) { return wide }
        if String(validating: bytes, as: UTF8.self) != nil { return .utf8 }
        return LegacyEncodingGuess.eightBit(bytes)
    }

    static func decode(_ bytes: ArraySlice<UInt8>, as encoding: SongTextEncoding) -> String {
        switch encoding {
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .utf16LE, .utf16BE:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = bytes.startIndex
            while i + 1 < bytes.endIndex {
                let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
                units.append(encoding == .utf16LE ? a | b << 8 : a << 8 | b)
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        case .utf32LE, .utf32BE:
            var scalars = String.UnicodeScalarView()
            var i = bytes.startIndex
            while i + 3 < bytes.endIndex {
                let b = (UInt32(bytes[i]), UInt32(bytes[i + 1]), UInt32(bytes[i + 2]), UInt32(bytes[i + 3]))
                let value = encoding == .utf32LE ? b.0 | b.1 << 8 | b.2 << 16 | b.3 << 24 : b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                i += 4
            }
            return String(scalars)
        default:
            // Every name above is one glibc's iconv knows; Latin-1 as the last resort keeps
            // decoding total should a system lack a converter.
            return IconvConverter.decode(bytes, from: encoding.iconvName)?.text
                ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
    }
}
