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

    /// Quotes and marks that open a word (`‘em`, `„Komm`, `¿Qué`, `¡Ay`) and that close one.
    static let opening: Set<Unicode.Scalar> = ["\u{2018}", "\u{201C}", "\u{201E}", "\u{201A}", "«", "\u{2039}", "¿", "¡"]
    static let closing: Set<Unicode.Scalar> = ["\u{2019}", "\u{201D}", "»", "\u{203A}"]

    static func score(_ text: String) -> Double {
        let scalars = Array(text.unicodeScalars)
        let kinds = scalars.map(Kind.init)
        var score = 0.0
        var nonASCIIRun = 0  // letters outside ASCII in a row
        // Words with letters beyond ASCII, as the set of those letters (lower case).
        var words: [Set<Unicode.Scalar>] = []
        var word: Set<Unicode.Scalar> = []
        for i in scalars.indices {
            let c = scalars[i]
            if !kinds[i].letter {
                if !word.isEmpty { words.append(word); word = [] }
            } else if !c.isASCII {
                word.insert(c.properties.lowercaseMapping.unicodeScalars.first ?? c)
            }
            guard !c.isASCII else {
                nonASCIIRun = 0
                // A lower-case letter beyond ASCII right before an ASCII capital: "żQué", "ôHello".
                if kinds[i].upper, i > 0, !scalars[i - 1].isASCII, kinds[i - 1].lower { score -= 3 }
                continue
            }
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
            } else if opening.contains(c) {
                // An opening mark starts a word; one that ends a word is a letter read wrongly.
                if previous?.letter != true && next?.letter == true { score += 3 }
                if previous?.letter == true && next?.letter != true { score -= 3 }
            } else if closing.contains(c), previous?.letter == true, next?.letter != true {
                score += 1
            }
        }
        if !word.isEmpty { words.append(word) }
        // Whole words: those the text's best language writes count for it, the others against.
        let written = LanguageAlphabets.wordsOfBestLanguage(words)
        score += 2 * Double(written) - 3 * Double(words.count - written)
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
