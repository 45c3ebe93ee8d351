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
            guard let line = paragraph.lyricLine() else {
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

/// One `<p>` as parsed: its times, text pieces and the word spans in it.
struct TTMLParagraph {
    var begin: Double?
    var end: Double?
    var agent: String?
    var line: Int
    /// Text in order; `time` set for text inside a timed span (raw, not yet made absolute).
    var pieces: [(text: String, begin: Double?, end: Double?)] = []

    var text: String { pieces.map(\.text).joined() }

    func lyricLine() -> LyricLine? {
        let timed = pieces.filter { $0.begin != nil }
        guard let pBegin = begin ?? timed.first?.begin else { return nil }
        // Apple writes span times absolute; TTML proper makes them relative to the paragraph.
        let absolute = begin == nil || timed.allSatisfy { $0.begin! >= pBegin - 0.001 && (end == nil || $0.begin! <= end! + 0.001) }
        func time(_ t: Double) -> Double { absolute ? t : pBegin + t }
        var syllables: [Syllable] = []
        var pending = ""  // untimed text before the first word
        for piece in pieces {
            let collapsed = piece.text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
            guard let b = piece.begin else {
                if syllables.isEmpty { pending += collapsed } else if collapsed.contains(" "), syllables[syllables.count - 1].text.last != " " {
                    syllables[syllables.count - 1].text += " "
                    let rest = collapsed.trimmingCharacters(in: .whitespaces)
                    if !rest.isEmpty { syllables[syllables.count - 1].text += rest + " " }
                } else {
                    syllables[syllables.count - 1].text += collapsed
                }
                continue
            }
            let words = collapsed.trimmingCharacters(in: .whitespaces)
            if words.isEmpty { continue }
            let start = time(b)
            let stop = piece.end.map(time) ?? start
            if collapsed.first == " ", let last = syllables.indices.last, syllables[last].text.last != " " { syllables[last].text += " " }
            syllables.append(Syllable(text: words + (collapsed.last == " " ? " " : ""), start: start, end: max(start, stop)))
        }
        let lineStart = syllables.first.map { min($0.start, pBegin) } ?? pBegin
        let lineEnd = max(end ?? syllables.map(\.end).max() ?? pBegin, syllables.map(\.end).max() ?? pBegin)
        if syllables.isEmpty {
            let shown = pending.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !shown.isEmpty else { return nil }
            return LyricLine(start: lineStart, end: lineEnd, syllables: [Syllable(text: shown, start: lineStart, end: lineEnd)])
        }
        // Untimed words before the first timed one are sung from the paragraph's start.
        let lead = pending.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if !lead.isEmpty {
            syllables.insert(Syllable(text: lead + " ", start: lineStart, end: max(lineStart, syllables[0].start)), at: 0)
        }
        while syllables[syllables.count - 1].text.last == " " { syllables[syllables.count - 1].text.removeLast() }
        return LyricLine(start: lineStart, end: lineEnd, syllables: syllables)
    }
}

/// The XMLParser delegate: tracks the element stack and the timing context.
final class TTMLCollector: NSObject, XMLParserDelegate {
    var paragraphs: [TTMLParagraph] = []
    var title = ""
    var sawRoot = false
    var agentNames: [String: String] = [:]
    var firstError: (message: String, line: Int)?
    private var stack: [(name: String, begin: Double?, end: Double?)] = []
    private var current: TTMLParagraph?
    private var inTitle = false
    private var agentID: String?
    private var inAgentName = false
    private var timing = TTMLTimeExpression.Rates()

    /// `ttm:title` → `title`: the part after the prefix.
    private static func local(_ name: String) -> String { String(name.split(separator: ":").last ?? Substring(name)) }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        let name = Self.local(elementName)
        if name == "tt" {
            sawRoot = true
            timing = TTMLTimeExpression.Rates(attributes: attributes)
        }
        let begin = attributes["begin"].flatMap { TTMLTimeExpression.seconds($0, rates: timing) }
        var end = attributes["end"].flatMap { TTMLTimeExpression.seconds($0, rates: timing) }
        if end == nil, let begin, let dur = attributes["dur"].flatMap({ TTMLTimeExpression.seconds($0, rates: timing) }) { end = begin + dur }
        switch name {
        case "p":
            // A paragraph's time counts from its ancestors' begin (body, div) — unless it lies
            // inside the enclosing div's own interval: Apple writes absolute times there.
            var offset = stack.compactMap(\.begin).reduce(0, +)
            if let begin, let outer = stack.last(where: { $0.begin != nil }), begin >= outer.begin! - 0.001,
               outer.end.map({ begin <= $0 + 0.001 }) ?? true {
                offset = 0
            }
            current = TTMLParagraph(begin: begin.map { $0 + offset }, end: end.map { $0 + offset },
                                    agent: attributes["ttm:agent"] ?? attributes["agent"], line: parser.lineNumber)
        case "span" where current != nil && begin != nil:
            current!.pieces.append(("", begin, end))
        case "br" where current != nil:
            current!.pieces.append((" ", nil, nil))
        case "title" where stack.contains { $0.name == "head" }:
            inTitle = true
        case "agent":
            agentID = attributes["xml:id"] ?? attributes["id"]
        case "name" where agentID != nil:
            inAgentName = true
        default:
            break
        }
        stack.append((name, name == "p" || name == "span" ? nil : begin, end))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let name = Self.local(elementName)
        _ = stack.popLast()
        switch name {
        case "p":
            if let paragraph = current { paragraphs.append(paragraph) }
            current = nil
        case "span" where current != nil:
            // Text after a timed span belongs to no word until the next span starts.
            if current!.pieces.last?.begin != nil { current!.pieces.append(("", nil, nil)) }
        case "title": inTitle = false
        case "name": inAgentName = false
        case "agent": agentID = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if firstError == nil { firstError = ((parseError as NSError).localizedDescription, parser.lineNumber) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { title += string }
        if inAgentName, let agentID { agentNames[agentID, default: ""] += string }
        guard current != nil else { return }
        if current!.pieces.isEmpty { current!.pieces.append(("", nil, nil)) }
        current!.pieces[current!.pieces.count - 1].text += string
    }
}
