import Foundation

/// Text as search compares it: case, accents and width folded ("Beyoncé" = "beyonce"),
/// split into words of letters and digits, as UTF-8 bytes (fast to compare 10,000 times).
enum SearchText {
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "ß", with: "ss")
    }

    static func words(_ text: String) -> [[UInt8]] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map { Array($0.utf8) }
    }

    /// The browse letter of a name: its first letter folded ("É" → "E"), or "#".
    static func letter(_ name: String) -> String {
        let skipped = name.drop { !($0.isLetter || $0.isNumber) }
        guard let first = fold(String(skipped.prefix(1))).uppercased().first, first.isLetter,
              first.isASCII else { return "#" }
        return String(first)
    }

    static func hasPrefix(_ word: [UInt8], _ prefix: [UInt8]) -> Bool {
        guard prefix.count <= word.count else { return false }
        for index in prefix.indices where word[index] != prefix[index] { return false }
        return true
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        let first = needle[0]
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var match = true
                for offset in 1..<needle.count where haystack[start + offset] != needle[offset] {
                    match = false
                    break
                }
                if match { return true }
            }
            start += 1
        }
        return false
    }
}
