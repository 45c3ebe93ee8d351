/// Guesses the encoding of song files that are neither UTF-8 nor marked.
///
/// Old UltraStar songs come from Windows (CP1252, CP1250, CP1251), Russian (KOI8-R) and DOS
/// (CP437/CP865) machines. Each candidate decodes the file (iconv) and the text is scored
/// by what the high bytes became (`CodePageEvidence`): letters inside words of one script
/// and mostly lower case count for a code page; control characters, box drawing, symbols
/// inside words ("Fu§ball") and capitals inside lower-case words ("donÆt") count against.
enum LegacyEncodingGuess {
    /// UTF-16 without a BOM shows up as every other byte being zero in ASCII-heavy text.
    static func unmarkedUTF16(_ bytes: [UInt8]) -> SongTextEncoding? {
        guard bytes.count >= 8, bytes.count % 2 == 0 else { return nil }
        var zeroEven = 0, zeroOdd = 0
        for (i, b) in bytes.prefix(2048).enumerated() where b == 0 {
            if i % 2 == 0 { zeroEven += 1 } else { zeroOdd += 1 }
        }
        let pairs = min(bytes.count, 2048) / 2
        if zeroOdd * 10 >= pairs * 7 && zeroEven == 0 { return .utf16LE }
        if zeroEven * 10 >= pairs * 7 && zeroOdd == 0 { return .utf16BE }
        return nil
    }

    /// UTF-32 without a BOM: in text of the Basic Multilingual Plane every fourth byte pair is
    /// zero (the high half of each unit), and no unit is above U+10FFFF.
    static func unmarkedUTF32(_ bytes: [UInt8]) -> SongTextEncoding? {
        guard bytes.count >= 8, bytes.count % 4 == 0 else { return nil }
        let units = stride(from: 0, to: min(bytes.count, 4096), by: 4).map { Array(bytes[$0..<$0 + 4]) }
        if units.allSatisfy({ $0[3] == 0 && $0[2] <= 0x10 }) && units.contains(where: { $0[0] != 0 }) { return .utf32LE }
        if units.allSatisfy({ $0[0] == 0 && $0[1] <= 0x10 }) && units.contains(where: { $0[3] != 0 }) { return .utf32BE }
        return nil
    }

    /// Candidates in order of preference when two score the same (CP1252 and CP1250 agree
    /// on German umlauts; CP437 and CP865 on everything but a few Nordic letters).
    static let candidates: [SongTextEncoding] = [.cp1252, .cp1250, .cp1251, .koi8R, .cp437, .cp865]
    /// Enough text to tell code pages apart; a lyric file is a few kB.
    static let sampleLimit = 256 << 10

    static func eightBit(_ bytes: [UInt8]) -> SongTextEncoding {
        let sample = bytes.prefix(sampleLimit)
        var best: (encoding: SongTextEncoding, score: Double)?
        for encoding in candidates {
            guard let decoded = IconvConverter.decode(sample, from: encoding.iconvName) else { continue }
            var score = CodePageEvidence.score(decoded.text) - 10 * Double(decoded.undefinedBytes)
            // Lyric files come from Windows far more often than from DOS: a DOS code page must
            // read clearly better (2 points per byte beyond ASCII) to be chosen.
            if encoding.isDOSCodePage { score -= 2 * Double(sample.count { $0 >= 0x80 }) }
            if best == nil || score > best!.score { best = (encoding, score) }
        }
        return best?.encoding ?? .cp1252
    }
}
