/// The lyric syllables of a MIDI file and the KAR `@` tags.
///
/// Which events carry the words: the Soft Karaoke "Words" track (a track named `Words` whose
/// text events, `FF 01`, hold the song) when there is one — files often carry lyric events
/// (`FF 05`) as well, for other players, without the line marks; else the lyric meta events
/// (`FF 05`, RP-017) of all tracks; else the text events of the track that has the most of
/// them (the `.kar` convention, Tune 1000). In text events `@T` is the title, a second `@T` the
/// artist, `@L` the language, `@I` info (`@K`, `@V`, `@W` are ignored); `%`-prefixed texts
/// (`%-`, `%+`: Soft Karaoke's control and chord codes) are not words. A syllable starting with
/// `\` starts a new paragraph and `/` a new line (the marks are removed from the text); lyric
/// events also mark line ends with CR or LF. A first line that is only a tool's banner
/// (`MIDIBanner`) is metadata, not a sung line.
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
    /// The first line when it is a tool's banner rather than lyrics.
    var banner: String?
    /// Which meta events carried the words, for the documentation of what was read.
    var source = "lyric events"
    /// Fewer text events than this in the best track are comments, not the words of a song.
    static let minimumKARWords = 4

    /// True for a text event that is a tag or a code, not a sung syllable.
    static func isWord(_ data: [UInt8]) -> Bool { data.first != 0x40 && data.first != 0x25 }  // '@', '%'

    init(file: MIDIFile) {
        let lyricEvents = file.tracks.flatMap { track in track.compactMap { timed -> (Int, [UInt8])? in
            if case .meta(0x05, let data) = timed.event { return (timed.tick, data) }
            return nil
        } }
        let textTracks = file.tracks.map { track in track.compactMap { timed -> (Int, [UInt8])? in
            if case .meta(0x01, let data) = timed.event { return (timed.tick, data) }
            return nil
        } }
        let trackNames = file.tracks.map { track in track.lazy.compactMap { timed -> [UInt8]? in
            if case .meta(0x03, let data) = timed.event { return data }
            return nil
        }.first }
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

        let wordsTrack = textTracks.indices.first { i in
            trackNames[i].map { decode($0).trimmingCharacters(in: .whitespaces).lowercased() } == "words"
                && textTracks[i].filter { Self.isWord($0.1) }.count >= Self.minimumKARWords
        }
        let words: [(Int, [UInt8])]
        if let wordsTrack {
            source = "text events of the Words track (.kar)"
            words = textTracks[wordsTrack].filter { Self.isWord($0.1) }
        } else if !lyricEvents.isEmpty {
            words = lyricEvents.filter { $0.1.first != 0x25 }
        } else {
            source = "text events (.kar)"
            let best = textTracks.max { a, b in a.filter { Self.isWord($0.1) }.count < b.filter { Self.isWord($0.1) }.count } ?? []
            // A track with a few texts holds comments ("Sequenced by …").
            let texts = best.filter { Self.isWord($0.1) }
            words = texts.count >= Self.minimumKARWords ? texts : []
        }
        var breakPending = false
        for (tick, data) in words.sorted(by: { $0.0 < $1.0 }) {
            var text = decode(data)
            var breakBefore = breakPending
            breakPending = false
            while let first = text.first, first == "\\" || first == "/" { breakBefore = true; text.removeFirst() }
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
        // A banner line before the song ("… unregistered version") is not sung.
        let firstLineLength = pieces.dropFirst().firstIndex { $0.breakBefore } ?? pieces.count
        if firstLineLength < pieces.count {
            let firstLine = pieces[..<firstLineLength].map(\.text).joined().trimmingCharacters(in: .whitespaces)
            if MIDIBanner.isBanner(firstLine) {
                banner = firstLine
                pieces.removeFirst(firstLineLength)
                pieces[0].breakBefore = true
            }
        }
    }
}
