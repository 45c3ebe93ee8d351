import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SongModel

/// Reads TTML / DFXP timed text (`.ttml`, `.dfxp`, `.xml`) with Foundation's `XMLParser`
/// (libxml2 underneath): every `<p>` with a time is a lyric line; `<span begin end>` inside it
/// are timed words (Apple Music's word-timed lyrics, `itunes:timing="Word"`). Span times are
/// relative to their paragraph (and paragraphs to their div) as TTML says, unless they fall
/// inside the enclosing element's own interval — then they are absolute, as Apple writes them. `ttm:agent` on paragraphs splits
/// a duet into parts; `<ttm:title>` is the title. External entities are never resolved.
/// `ttm:role` spans are not sung text: `x-translation` and `x-roman` become the line's
/// translation and romanisation, `x-bg` its background vocals (`LineCompanions`); Apple's
/// head `<translation>`/`<transliteration>` texts, linked by `itunes:key`, win over inline
/// ones. Whitespace follows `xml:space` (`TTMLWhitespace`).
public enum TTMLReader {
    public static func read(bytes: [UInt8], path: String, mode: SongReadingMode = .lenient) throws(SongFileError) -> Song {
        var assumptions = ReadingAssumptions(path: path, mode: mode)
        let collector = TTMLCollector()
        let parser = XMLParser(data: Data(utf8Document(bytes).utf8))
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        // libxml2 may recover from an error and still report success: the first error counts.
        if !parser.parse() || collector.firstError != nil {
            let error = collector.firstError ?? (parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown XML error", parser.lineNumber)
            throw SongFileError(path: path, line: max(1, error.line), message: "invalid XML: \(error.message)")
        }
        guard collector.sawRoot else {
            throw SongFileError(path: path, line: 1, message: "not a TTML document (no <tt> root element)")
        }
        // A duet only when paragraphs name two or more singers (`ttm:agent`).
        let split = Set(collector.paragraphs.compactMap(\.agent)).count > 1
        var byAgent: [String: [LyricLine]] = [:]
        var agents: [String] = []
        for paragraph in collector.paragraphs {
            guard let line = paragraph.lyricLine(headTranslation: paragraph.key.flatMap { collector.headTranslations[$0] },
                                                 headRomanization: paragraph.key.flatMap { collector.headRomanizations[$0] }) else {
                if !paragraph.text.allSatisfy(\.isWhitespace) {
                    try assumptions.assume(line: paragraph.line, problem: "paragraph '\(UltraStarBodyParser.excerpt(Substring(paragraph.text.trimmingCharacters(in: .whitespacesAndNewlines))))' has no begin time",
                                           assumption: "it is skipped")
                }
                continue
            }
            let agent = split ? paragraph.agent ?? "" : ""
            if byAgent[agent] == nil { agents.append(agent) }
            byAgent[agent, default: []].append(line)
        }
        guard !agents.isEmpty else { throw SongFileError(path: path, line: nil, message: "no timed paragraphs (<p begin=… end=…>)") }
        let named = agents.count > 1
        let parts = agents.map { agent in
            let lines = byAgent[agent]!.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
            return VoicePart(name: named ? (collector.agentNames[agent] ?? (agent.isEmpty ? "Solo" : agent)) : "Solo", lines: lines)
        }
        var metadata = SongMetadata()
        metadata.title = collector.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return Song(metadata: metadata, parts: parts, beatClock: nil, source: SongSource(path: path, format: .ttml),
                    warnings: assumptions.all)
    }

    /// The document as valid UTF-8 with a declaration that says so. FoundationXML force-unwraps
    /// the UTF-8 of comments and processing instructions libxml2 hands it, so bytes that are
    /// not valid UTF-8 there would crash the process; our decoder (BOM, UTF-16, code-page guess)
    /// makes every document valid UTF-8 first.
    static func utf8Document(_ bytes: [UInt8]) -> String {
        var text = SongTextDecoder.decode(bytes).text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
            text.replaceSubrange(text.startIndex..<end.upperBound, with: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        }
        return text
    }
}

