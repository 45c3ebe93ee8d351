/// The lyric syllables of a MIDI file and the KAR `@` tags.
///
/// Lyric meta events (`FF 05`, RP-017) win; a `.kar` file (Tune 1000 convention) writes its
/// words as text events (`FF 01`) in one track instead, with `@T` title/artist, `@L`
/// language, `@I` info lines. In both, a syllable starting with `\` starts a new paragraph
/// and `/` a new line; lyric events also mark line ends with CR or LF.
struct MIDILyrics {
    struct Piece {
        var tick: Int
        var text: String
        /// A line starts with this piece.
        var breakBefore: Bool
    }

    var pieces: [Piece] = []
    var title: String?
    var artist: String?
    var language: String?
    var info: [String] = []
    /// Which meta event carried the words, for the documentation of what was read.
    var source = "lyric events"
    /// Fewer text events than this in the best track are comments, not the words of a song.
    static let minimumKARWords = 4

    init(file: MIDIFile) {
        let lyricEvents = file.tracks.flatMap { track in track.compactMap { timed -> (Int, [UInt8])? in
            if case .meta(0x05, let data) = timed.event { return (timed.tick, data) }
            return nil
        } }
        // Text events of each track; the KAR words track is the one with the most non-@ texts.
        let textTracks = file.tracks.map { track in track.compactMap { timed -> (Int, [UInt8])? in
            if case .meta(0x01, let data) = timed.event { return (timed.tick, data) }
            return nil
        } }
        let allText = textTracks.flatMap { $0 }
        let encoding = SongTextDecoder.decode((lyricEvents + allText).flatMap { $0.1 + [0x0A] }).encoding
        func decode(_ data: [UInt8]) -> String { SongTextDecoder.decode(data, declared: encoding).text }

        for (_, data) in allText {
            let text = decode(data)
            guard text.hasPrefix("@"), text.count >= 2 else { continue }
            let value = String(text.dropFirst(2)).trimmingCharacters(in: .whitespaces)
            switch text.dropFirst().first {
            case "T":
                if title == nil { title = value } else if artist == nil { artist = value } else { info.append(value) }
            case "L": language = value
            case "I": info.append(value)
            default: break
            }
        }

        let words: [(Int, [UInt8])]
        if !lyricEvents.isEmpty {
            words = lyricEvents
        } else {
            source = "text events (.kar)"
            let best = textTracks.max { a, b in
                a.filter { $0.1.first != 0x40 }.count < b.filter { $0.1.first != 0x40 }.count
            } ?? []
            // '@' tags are not lyrics; a track with a few texts holds comments ("Sequenced by …").
            let texts = best.filter { $0.1.first != 0x40 }
            words = texts.count >= Self.minimumKARWords ? texts : []
        }
        var breakPending = false
        for (tick, data) in words.sorted(by: { $0.0 < $1.0 }) {
            var text = decode(data)
            var breakBefore = breakPending
            breakPending = false
            if text.first == "\\" || text.first == "/" { breakBefore = true; text.removeFirst() }
            if let first = text.first, first == "\r" || first == "\n" { breakBefore = true }
            if let last = text.last, last == "\r" || last == "\n" { breakPending = true }
            text = text.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" && $0 != "\0" }
            if text.trimmingCharacters(in: .whitespaces).isEmpty {
                // A marker on its own: the break applies to the next syllable.
                if breakBefore { breakPending = true }
                if !text.isEmpty, var last = pieces.popLast() { last.text += " "; pieces.append(last) }
                continue
            }
            pieces.append(Piece(tick: tick, text: text, breakBefore: breakBefore || pieces.isEmpty))
        }
    }
}
