import SongModel
/// Which reader a file needs, from its extension and, when that is not decisive, its first bytes.
enum SongFileKind: Equatable {
    case ultraStar, lrc, flo, jsonCues, webVTT, subRip, ass, ttml, midi, cdg
    case unsupported(String)

    static func detect(path: String, bytes: [UInt8]) -> SongFileKind {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.contains(".") ? String(name.split(separator: ".").last!).lowercased() : ""
        // Binary formats first: their bytes are not text.
        if bytes.starts(with: Array("MThd".utf8)) || bytes.starts(with: Array("RIFF".utf8)) && ["mid", "midi", "kar", "rmi"].contains(ext) {
            return bytes.starts(with: Array("RIFF".utf8))
                ? .unsupported("RIFF MIDI (.rmi) is not supported; save it as a Standard MIDI File (.mid)") : .midi
        }
        if ext == "cdg" { return .cdg }
        let head = SongTextDecoder.decode(Array(bytes.prefix(4096))).text
        let firstLine = Substring(head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })).prefix(while: { !$0.isNewline })
        switch ext {
        case "lrc", "elrc", "flo": return .lrc
        case "vtt", "webvtt": return .webVTT
        case "json": return .jsonCues
        case "ass", "ssa": return .ass
        case "srt": return .subRip
        case "ttml", "dfxp": return .ttml
        case "mid", "midi", "kar":
            return .unsupported("not a Standard MIDI File (no 'MThd' header)")
        default:
            if firstLine.hasPrefix("WEBVTT") { return .webVTT }
            if firstLine.hasPrefix("<") && (head.contains("<tt") || head.contains(":tt")) { return .ttml }
            if head.hasPrefix("[Script Info]") || firstLine.lowercased() == "[script info]" { return .ass }
            if firstLine.allSatisfy({ $0.isASCII && $0.isNumber }), !firstLine.isEmpty, head.contains("-->") { return .subRip }
            if firstLine.first == "{" || firstLine.first == "[" && firstLine.dropFirst().trimmed.first.map({ $0 == "{" || $0 == "]" }) ?? true {
                if firstLine.first == "{" || head.contains("\"start\"") { return .jsonCues }
            }
            if firstLine.first == "[" { return looksLikeFLO(firstLine) ? .flo : .lrc }
            if ext == "txt" || firstLine.first == "#" { return .ultraStar }
            return .unsupported("unknown song file type '\(ext.isEmpty ? name : "." + ext)' (expected .txt, .lrc, .json, .vtt, .srt, .ass, .ttml, .mid, .kar, .cdg)")
        }
    }

    private static func looksLikeFLO(_ line: Substring) -> Bool {
        guard let close = line.firstIndex(of: "]") else { return false }
        return LRCTimestamp(line[line.index(after: line.startIndex)..<close])?.colonFraction == true
    }
}
