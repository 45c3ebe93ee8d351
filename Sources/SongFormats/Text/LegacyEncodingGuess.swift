/// Guesses the encoding of song files that are neither UTF-8 nor marked.
///
/// Old UltraStar songs come from Windows (CP1252), Russian (KOI8-R / CP1251) and DOS
/// (CP437/CP865) machines. The clues are cheap and robust enough for lyric files:
/// Latin text has a few high bytes inside ASCII words, Cyrillic text has whole words
/// of high bytes, and DOS code pages put letters at 0x80…0xA5 where CP1252 has
/// punctuation.
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

    static func eightBit(_ bytes: [UInt8]) -> SongTextEncoding {
        // Runs of high bytes ≥ 0xC0 three or more long: Cyrillic words.
        var inCyrillicRun = 0, cyrillicRunBytes = 0, upperHalfLetters = 0
        var lowerA = 0, upperA = 0  // KOI8-R lower case lives at 0xC0…0xDF, CP1251's at 0xE0…0xFF
        var dosLetters = 0, dosScandinavian = 0
        func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        for (i, b) in bytes.enumerated() {
            if b >= 0xC0 {
                upperHalfLetters += 1
                inCyrillicRun += 1
                if b < 0xE0 { lowerA += 1 } else { upperA += 1 }
            } else {
                if inCyrillicRun >= 3 { cyrillicRunBytes += inCyrillicRun }
                inCyrillicRun = 0
            }
            // A DOS letter (0x80…0xA5) between ASCII letters, where CP1252 would have
            // punctuation such as † ‘ › in the middle of a word.
            if (0x80...0xA5).contains(b), i > 0, i + 1 < bytes.count,
               isASCIILetter(bytes[i - 1]) || isASCIILetter(bytes[i + 1]),
               ![0x8A, 0x8C, 0x8E, 0x9A, 0x9C, 0x9E, 0x9F].contains(b) {
                dosLetters += 1
                if b == 0x9B || b == 0x9D || b == 0x86 || b == 0x8F || b == 0x91 || b == 0x92 { dosScandinavian += 1 }
            }
        }
        if inCyrillicRun >= 3 { cyrillicRunBytes += inCyrillicRun }
        if upperHalfLetters > 0, cyrillicRunBytes * 2 >= upperHalfLetters {
            return lowerA >= upperA ? .koi8R : .cp1251
        }
        if dosLetters > 0 && dosLetters >= upperHalfLetters {
            return dosScandinavian > 0 ? .cp865 : .cp437
        }
        return .cp1252
    }
}
