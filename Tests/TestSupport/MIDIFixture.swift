/// Writes small Standard MIDI Files for tests: a melody with lyrics (as `.kar` text events or
/// as lyric meta events), a tempo map, and an accompaniment with chords and drums that the
/// reader must not mistake for the melody.
public struct MIDIFixture: Sendable {
    public struct Sung: Sendable {
        /// Position and length in quarter notes.
        public var quarter: Double
        public var length: Double
        public var key: Int
        public var lyric: String
        public var startsLine: Bool

        public init(quarter: Double, length: Double, key: Int, lyric: String, startsLine: Bool = false) {
            self.quarter = quarter
            self.length = length
            self.key = key
            self.lyric = lyric
            self.startsLine = startsLine
        }
    }

    public enum LyricStyle: Sendable { case karTextEvents, lyricMetaEvents }

    public var title = "Fixture Song"
    public var artist = "The Tests"
    public var ticksPerQuarter = 480
    /// Tempo changes: from `quarter` on, `bpm` quarter notes per minute.
    public var tempos: [(quarter: Double, bpm: Double)] = [(0, 100)]
    public var melody: [Sung]
    public var style = LyricStyle.karTextEvents
    public var accompaniment = true

    public init(melody: [Sung]) { self.melody = melody }

    /// Seconds at a position in quarter notes, through the tempo map.
    public func seconds(atQuarter q: Double) -> Double {
        var seconds = 0.0
        for (i, tempo) in tempos.enumerated() {
            let next = i + 1 < tempos.count ? tempos[i + 1].quarter : Double.infinity
            guard q > tempo.quarter else { break }
            seconds += (min(q, next) - tempo.quarter) * 60 / tempo.bpm
        }
        return seconds
    }

    public func bytes() -> [UInt8] {
        func tick(_ q: Double) -> Int { Int((q * Double(ticksPerQuarter)).rounded()) }
        var tracks: [[(Int, [UInt8])]] = []
        // Track 0: tempo map and name.
        var conductor: [(Int, [UInt8])] = [(0, Self.meta(0x03, Array("\(title)".utf8)))]
        for tempo in tempos {
            let us = Int((60_000_000 / tempo.bpm).rounded())
            conductor.append((tick(tempo.quarter), [0xFF, 0x51, 0x03, UInt8(us >> 16), UInt8(us >> 8 & 0xFF), UInt8(us & 0xFF)]))
        }
        tracks.append(conductor)
        // Words.
        var words: [(Int, [UInt8])] = []
        switch style {
        case .karTextEvents:
            for tag in ["@KMIDI KARAOKE FILE", "@V0100", "@LENGL", "@T\(title)", "@T\(artist)", "@IMade by the tests"] {
                words.append((0, Self.meta(0x01, Array(tag.utf8))))
            }
            for (i, sung) in melody.enumerated() where !sung.lyric.isEmpty {
                let text = (sung.startsLine && i > 0 ? "/" : "") + sung.lyric
                words.append((tick(sung.quarter), Self.meta(0x01, Array(text.utf8))))
            }
        case .lyricMetaEvents:
            for (i, sung) in melody.enumerated() where !sung.lyric.isEmpty {
                let endsLine = melody[(i + 1)...].first { !$0.lyric.isEmpty }?.startsLine == true
                words.append((tick(sung.quarter), Self.meta(0x05, Array((sung.lyric + (endsLine ? "\r" : "")).utf8))))
            }
        }
        tracks.append(words)
        // Melody on channel 1.
        var lead: [(Int, [UInt8])] = [(0, Self.meta(0x03, Array("Melody".utf8))), (0, [0xC0, 52])]
        for sung in melody {
            lead.append((tick(sung.quarter), [0x90, UInt8(sung.key), 96]))
            lead.append((tick(sung.quarter + sung.length), [0x80, UInt8(sung.key), 0]))
        }
        tracks.append(lead)
        if accompaniment, let last = melody.last {
            // Chords on channel 2 every two quarters, drums (channel 10) every quarter.
            var band: [(Int, [UInt8])] = []
            var q = 0.0
            while q < last.quarter + last.length {
                for key in [48, 52, 55] {
                    band.append((tick(q), [0x91, UInt8(key), 70]))
                    band.append((tick(q + 2), [0x81, UInt8(key), 0]))
                }
                for d in [0.0, 1.0] {
                    band.append((tick(q + d), [0x99, 36, 100]))
                    band.append((tick(q + d + 0.25), [0x89, 36, 0]))
                }
                q += 2
            }
            tracks.append(band)
        }
        var file: [UInt8] = Array("MThd".utf8) + Self.u32(6) + [0, 1] + Self.u16(tracks.count) + Self.u16(ticksPerQuarter)
        for track in tracks {
            // Stable by tick: note-offs written before note-ons at the same tick stay first.
            let sorted = track.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
            var data: [UInt8] = []
            var now = 0
            for (t, event) in sorted {
                data += Self.variableLength(t - now) + event
                now = t
            }
            data += [0x00, 0xFF, 0x2F, 0x00]
            file += Array("MTrk".utf8) + Self.u32(data.count) + data
        }
        return file
    }

    static func meta(_ type: UInt8, _ data: [UInt8]) -> [UInt8] { [0xFF, type] + variableLength(data.count) + data }

    static func variableLength(_ value: Int) -> [UInt8] {
        var v = value
        var out: [UInt8] = [UInt8(v & 0x7F)]
        v >>= 7
        while v > 0 { out.insert(UInt8(v & 0x7F) | 0x80, at: 0); v >>= 7 }
        return out
    }

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A 32-note tune in C major (two lines of eight bars of quarter and eighth notes, a melisma
    /// of two notes on one syllable), with a tempo change from 100 to 120 BPM halfway.
    public static func tune() -> MIDIFixture {
        let keys = [60, 62, 64, 65, 67, 67, 69, 67, 65, 64, 62, 60, 64, 67, 72, 71,
                    69, 67, 65, 64, 62, 64, 65, 67, 69, 71, 72, 67, 64, 62, 60, 60]
        let syllables = ["Sing", " a", " song", " of", " morn", "ing", " light", "", " a", "cross", " the", " hill", " and", " o", "ver", " sea",
                         "Hear", " the", " bells", " of", " ev", "er", " bright", " and", " car", "ry", " me", " to", " home", " a", "gain", ""]
        var melody: [Sung] = []
        var q = 4.0  // one bar of intro
        for (i, key) in keys.enumerated() {
            let length = i % 4 == 3 ? 1.0 : 0.5
            // An empty syllable: a second note on the syllable before (no lyric event).
            melody.append(Sung(quarter: q, length: length, key: key, lyric: syllables[i], startsLine: i == 0 || i == 16))
            q += length + (i % 8 == 7 ? 1 : 0)
        }
        var fixture = MIDIFixture(melody: melody)
        fixture.tempos = [(0, 100), (melody[16].quarter, 120)]
        return fixture
    }
}
