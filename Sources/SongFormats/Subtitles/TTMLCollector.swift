import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The XMLParser delegate of `TTMLReader`: tracks the element stack, the timing context,
/// `xml:space`, and where text goes — the sung words, or (`ttm:role`) the translation,
/// romanisation or background vocals that go with them; and Apple's head translations.
final class TTMLCollector: NSObject, XMLParserDelegate {
    var paragraphs: [TTMLParagraph] = []
    var title = ""
    var sawRoot = false
    var agentNames: [String: String] = [:]
    var firstError: (message: String, line: Int)?
    /// Apple's `<iTunesMetadata>` translations and transliterations: `itunes:key` → text.
    var headTranslations: [String: String] = [:]
    var headRomanizations: [String: String] = [:]
    private var stack: [(name: String, begin: Double?, end: Double?, role: String?, preserve: Bool)] = []
    private var current: TTMLParagraph?
    private var inTitle = false
    private var agentID: String?
    private var inAgentName = false
    /// Inside `<translation>`/`<transliteration>` of the head: which, and the `<text for=…>` key.
    private var headKind: String?
    private var headKey: String?
    private var timing = TTMLTimeExpression.Rates()

    /// `ttm:title` → `title`: the part after the prefix.
    private static func local(_ name: String) -> String { String(name.split(separator: ":").last ?? Substring(name)) }

    /// The roles of the spans the parser is in, innermost last.
    private var roles: [String] { stack.compactMap(\.role) }
    private var preserve: Bool { stack.last?.preserve ?? false }

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
        let role = attributes["ttm:role"] ?? attributes["role"]
        let space = attributes["xml:space"].map { $0 == "preserve" } ?? preserve
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
                                    agent: attributes["ttm:agent"] ?? attributes["agent"],
                                    key: attributes["itunes:key"], line: parser.lineNumber)
        case "span" where current != nil && role == "x-bg":
            if current!.background == nil { current!.background = (begin, end, TTMLTextRun()) }
        case "span" where current != nil && begin != nil && role == nil && !roles.contains(where: { $0 != "x-bg" }):
            if roles.contains("x-bg") {
                current!.background!.run.pieces.append(("", begin, end, space))
            } else {
                current!.main.pieces.append(("", begin, end, space))
            }
        case "br" where current != nil && roles.isEmpty:
            current!.main.pieces.append((" ", nil, nil, space))
        case "title" where stack.contains { $0.name == "head" }:
            inTitle = true
        case "agent":
            agentID = attributes["xml:id"] ?? attributes["id"]
        case "name" where agentID != nil:
            inAgentName = true
        case "translation", "transliteration":
            headKind = name
        case "text" where headKind != nil:
            headKey = attributes["for"]
        default:
            break
        }
        var kept = name == "span" ? role : nil
        // One translation and one romanisation per line (the first); later ones are not shown.
        if let role = kept, role == "x-translation" || role == "x-roman", let paragraph = current {
            let run = roles.contains("x-bg") ? paragraph.background?.run : paragraph.main
            if (role == "x-translation" ? run?.translation : run?.romanization) != nil { kept = role + "-more" }
        }
        stack.append((name, name == "p" || name == "span" ? nil : begin, end, kept, space))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let name = Self.local(elementName)
        let closed = stack.popLast()
        switch name {
        case "p":
            if let paragraph = current { paragraphs.append(paragraph) }
            current = nil
        case "span" where current != nil && closed?.role == nil:
            // Text after a timed span belongs to no word until the next span starts.
            if roles.contains("x-bg") {
                if current!.background!.run.pieces.last?.begin != nil { current!.background!.run.pieces.append(("", nil, nil, preserve)) }
            } else if roles.isEmpty, current!.main.pieces.last?.begin != nil {
                current!.main.pieces.append(("", nil, nil, preserve))
            }
        case "title": inTitle = false
        case "name": inAgentName = false
        case "agent": agentID = nil
        case "translation", "transliteration": headKind = nil
        case "text": headKey = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if firstError == nil { firstError = ((parseError as NSError).localizedDescription, parser.lineNumber) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { title += string }
        if inAgentName, let agentID { agentNames[agentID, default: ""] += string }
        if let headKind, let headKey {
            if headKind == "translation" { headTranslations[headKey, default: ""] += string } else { headRomanizations[headKey, default: ""] += string }
        }
        guard current != nil else { return }
        let roles = roles
        let inBackground = roles.contains("x-bg")
        // The innermost translation/romanisation role decides where the text goes.
        if let role = roles.last(where: { $0 == "x-translation" || $0 == "x-roman" }) {
            func add(_ text: inout String?) { text = (text ?? "") + string }
            if inBackground {
                if role == "x-translation" { add(&current!.background!.run.translation) } else { add(&current!.background!.run.romanization) }
            } else if role == "x-translation" {
                add(&current!.main.translation)
            } else {
                add(&current!.main.romanization)
            }
        } else if roles.contains(where: { $0 != "x-bg" }) {
            return  // another role (x-singer …): not sung text
        } else if inBackground {
            current!.background!.run.append(string, preserve: preserve)
        } else {
            current!.main.append(string, preserve: preserve)
        }
    }
}
