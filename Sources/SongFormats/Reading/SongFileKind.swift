import SongModel
/// Which reader a file needs, from its extension and, when that is not decisive, its first bytes.
enum SongFileKind: Equatable {
    case ultraStar, lrc, flo, jsonCues, webVTT
    case unsupported(String)

    static func detect(path: String, bytes: [UInt8]) -> SongFileKind {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.contains(".") ? String(name.split(separator: ".").last!).lowercased() : ""
        let head = SongTextDecoder.decode(Array(bytes.prefix(4096))).text
        let firstLine = Substring(head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })).prefix(while: { !$0.isNewline })
        switch ext {
        case "lrc", "elrc", "flo": return .lrc
        case "vtt", "webvtt": return .webVTT
        case "json": return .jsonCues
        case "ass", "ssa":
            return .unsupported("Advanced SubStation Alpha (.\(ext)) subtitles are not supported; convert them to LRC or UltraStar")
        case "srt":
            return .unsupported("SubRip (.srt) subtitles are not supported; convert them to WebVTT or LRC")
        default:
            if firstLine.hasPrefix("WEBVTT") { return .webVTT }
            if firstLine.first == "{" || firstLine.first == "[" && firstLine.dropFirst().trimmed.first.map({ $0 == "{" || $0 == "]" }) ?? true {
                if firstLine.first == "{" || head.contains("\"start\"") { return .jsonCues }
            }
            if firstLine.first == "[" { return looksLikeFLO(firstLine) ? .flo : .lrc }
            if ext == "txt" || firstLine.first == "#" { return .ultraStar }
            return .unsupported("unknown song file type '\(ext.isEmpty ? name : "." + ext)' (expected .txt, .lrc, .json, .vtt)")
        }
    }

    private static func looksLikeFLO(_ line: Substring) -> Bool {
        guard let close = line.firstIndex(of: "]") else { return false }
        return LRCTimestamp(line[line.index(after: line.startIndex)..<close])?.colonFraction == true
    }
}
