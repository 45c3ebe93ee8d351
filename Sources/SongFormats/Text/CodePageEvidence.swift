/// Scores how plausible a decoding of a legacy 8-bit file is, from what its non-ASCII
/// characters turned into and what stands around them. Only non-ASCII characters are
/// judged: ASCII reads the same in every candidate.
enum CodePageEvidence {
    enum Script { case latin, cyrillic, greek, other }

    static func score(_ text: String) -> Double {
        let scalars = Array(text.unicodeScalars)
        var score = 0.0
        var nonASCIIRun = 0  // letters outside ASCII in a row
        for (i, c) in scalars.enumerated() {
            guard !c.isASCII else { nonASCIIRun = 0; continue }
            let previous = i > 0 ? scalars[i - 1] : nil
            let next = i + 1 < scalars.count ? scalars[i + 1] : nil
            let properties = c.properties
            if !properties.isAlphabetic { nonASCIIRun = 0 }
            if properties.generalCategory == .control || properties.generalCategory == .unassigned
                || properties.generalCategory == .privateUse || c == "\u{FFFD}" {
                score -= 10
            } else if (0x2500...0x259F).contains(c.value) {
                // Box drawing and shading: DOS screens, not lyrics.
                score -= 5
            } else if properties.isAlphabetic {
                nonASCIIRun += 1
                // Latin-script languages put a few accented letters among ASCII ones; a whole
                // word of them ("ëþáëþ") is Cyrillic read with the wrong code page.
                if nonASCIIRun >= 3 && script(c) == .latin { score -= 3 }
                let inWord = isLetter(previous) || isLetter(next)
                score += inWord ? 2 : -0.5
                if properties.isLowercase { score += 0.5 }
                // A capital right after a lower-case letter: "donÆt", "лЮБЛЮ".
                if properties.isUppercase, let previous, previous.properties.isLowercase { score -= 3 }
                // A letter of another script inside a word: "Trдnen".
                for neighbour in [previous, next] {
                    if let neighbour, isLetter(neighbour), script(neighbour) != script(c) { score -= 3 }
                }
            } else if isLetter(previous) && isLetter(next) {
                // Punctuation inside a word: only an apostrophe belongs there.
                score += c == "\u{2019}" ? 1 : -3
            }
        }
        return score
    }

    private static func isLetter(_ c: Unicode.Scalar?) -> Bool {
        c?.properties.isAlphabetic == true
    }

    static func script(_ c: Unicode.Scalar) -> Script {
        switch c.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F: .latin
        case 0x400...0x52F: .cyrillic
        case 0x370...0x3FF: .greek
        default: .other
        }
    }
}
