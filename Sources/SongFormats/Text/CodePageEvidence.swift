/// Scores how plausible a decoding of a legacy 8-bit file is, from what its non-ASCII
/// characters turned into and what stands around them. Only non-ASCII characters are
/// judged: ASCII reads the same in every candidate.
enum CodePageEvidence {
    enum Script { case latin, cyrillic, greek, other }

    /// What the score needs to know of one character, looked up once.
    struct Kind {
        var letter = false
        var lower = false
        var upper = false
        /// Control, unassigned, private use or U+FFFD: a byte the code page does not mean.
        var junk = false
        var script = Script.other

        init(_ c: Unicode.Scalar) {
            if c.isASCII {
                let v = c.value
                letter = (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
                lower = (0x61...0x7A).contains(v)
                upper = (0x41...0x5A).contains(v)
                script = letter ? .latin : .other
                return
            }
            let p = c.properties
            junk = c == "\u{FFFD}" || [.control, .unassigned, .privateUse].contains(p.generalCategory)
            letter = p.isAlphabetic
            if letter {
                lower = p.isLowercase
                upper = p.isUppercase
                script = CodePageEvidence.script(c)
            }
        }
    }

    static func score(_ text: String) -> Double {
        let scalars = Array(text.unicodeScalars)
        let kinds = scalars.map(Kind.init)
        var score = 0.0
        var nonASCIIRun = 0  // letters outside ASCII in a row
        for i in scalars.indices {
            let c = scalars[i]
            guard !c.isASCII else { nonASCIIRun = 0; continue }
            let kind = kinds[i]
            let previous = i > 0 ? kinds[i - 1] : nil
            let next = i + 1 < kinds.count ? kinds[i + 1] : nil
            if !kind.letter { nonASCIIRun = 0 }
            if kind.junk {
                score -= 10
            } else if (0x2500...0x259F).contains(c.value) {
                // Box drawing and shading: DOS screens, not lyrics.
                score -= 5
            } else if kind.letter {
                nonASCIIRun += 1
                // Latin-script languages put a few accented letters among ASCII ones; a whole
                // word of them ("ëþáëþ") is Cyrillic read with the wrong code page.
                if nonASCIIRun >= 3 && kind.script == .latin { score -= 3 }
                let inWord = previous?.letter == true || next?.letter == true
                score += inWord ? 2 : -0.5
                if kind.lower { score += 0.5 }
                // A capital right after a lower-case letter: "donÆt", "лЮБЛЮ".
                if kind.upper, previous?.lower == true { score -= 3 }
                // A letter of another script inside a word: "Trдnen".
                for neighbour in [previous, next] {
                    if let neighbour, neighbour.letter, neighbour.script != kind.script { score -= 3 }
                }
            } else if previous?.letter == true && next?.letter == true {
                // Punctuation inside a word: only an apostrophe belongs there.
                score += c == "\u{2019}" ? 1 : -3
            }
        }
        return score
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
