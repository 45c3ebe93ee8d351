/// Who sings an LRC line in a duet, from a mark at the start of its text: `v1:` … `v9:`
/// (the voice numbers of Apple-style lyric exports, `ttm:agent` `v1`, `v2` …) or the Walaoke
/// marks `M:` (male), `F:` (female), `D:` (duet: both sing). A mark holds for the lines after
/// it until the next one, as the Walaoke extension says.
enum LRCVoice: Hashable, Comparable {
    case numbered(Int)
    case male
    case female
    /// `D:`: every part sings the line.
    case both

    /// The part's name in the song.
    var partName: String {
        switch self {
        case .numbered(let n): "P\(n)"
        case .male: "Male"
        case .female: "Female"
        case .both: "Duet"
        }
    }

    /// The mark at the start of `text` (spaces before it allowed) and the text after it (one
    /// space after the colon dropped); nil when the text starts with no mark.
    static func split(_ text: Substring) -> (voice: LRCVoice, rest: Substring)? {
        var s = text
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        let voice: LRCVoice
        var markLength = 2
        switch s.first {
        case "v", "V":
            guard let digit = s.dropFirst().first, let n = digit.wholeNumberValue, digit.isASCII, n >= 1 else { return nil }
            voice = .numbered(n)
            markLength = 3
        case "M": voice = .male
        case "F": voice = .female
        case "D": voice = .both
        default: return nil
        }
        guard s.count >= markLength, s.dropFirst(markLength - 1).first == ":" else { return nil }
        var rest = s.dropFirst(markLength)
        if rest.first == " " { rest.removeFirst() }
        return (voice, rest)
    }
}
