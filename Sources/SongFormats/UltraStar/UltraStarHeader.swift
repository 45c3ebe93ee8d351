import SongModel

/// One `#KEY:VALUE` line as written.
struct UltraStarTag {
    var key: String
    var value: String
    var line: Int
}

/// The interpreted header of an UltraStar file: metadata, timing and singer names.
struct UltraStarHeader {
    var metadata = SongMetadata()
    var generation = UltraStarGeneration.unversioned
    var bpm: Double?
    var gapMilliseconds: Double = 0
    var relative = false
    /// `#P1`…`#P9` (or `#DUETSINGERP1`…) by voice number.
    var voiceNames: [Int: String] = [:]
    /// v2 medley bounds in milliseconds; converted to beats once the clock is known.
    var medleyStartMs: Double?
    var medleyEndMs: Double?
    var hasVideo = false

    /// Keys this reader interprets; all others go to `otherTags`.
    static let knownKeys: Set<String> = [
        "TITLE", "ARTIST", "MP3", "AUDIO", "VOCALS", "VOCALSAUDIO", "INSTRUMENTAL", "INSTRUMENTALAUDIO",
        "VIDEO", "COVER", "BACKGROUND", "BPM", "GAP", "VIDEOGAP", "START", "END", "PREVIEWSTART",
        "MEDLEYSTARTBEAT", "MEDLEYENDBEAT", "MEDLEYSTART", "MEDLEYEND", "RELATIVE", "ENCODING", "VERSION",
        "YEAR", "GENRE", "LANGUAGE", "EDITION", "CREATOR", "AUTHOR", "ALBUM",
    ]

    static func isVoiceNameKey(_ key: String) -> Int? {
        for prefix in ["DUETSINGERP", "P"] where key.hasPrefix(prefix) {
            let digits = key.dropFirst(prefix.count)
            if digits.count == 1, let n = Int(digits), (1...9).contains(n) { return n }
        }
        return nil
    }

    /// Interprets the tags. Duplicates of an interpreted key with a different value are an
    /// error (which one would the author mean?); identical repeats are harmless.
    init(tags: [UltraStarTag], path: String) throws(SongFileError) {
        func fail(_ line: Int?, _ message: String) -> SongFileError { SongFileError(path: path, line: line, message: message) }

        var first: [String: UltraStarTag] = [:]
        for tag in tags {
            let interpreted = Self.knownKeys.contains(tag.key) || Self.isVoiceNameKey(tag.key) != nil
            if let earlier = first[tag.key] {
                if interpreted && earlier.value != tag.value {
                    throw fail(tag.line, "duplicate header #\(tag.key) ('\(tag.value)'; line \(earlier.line) says '\(earlier.value)')")
                }
                continue
            }
            first[tag.key] = tag
        }

        if let v = first["VERSION"] {
            guard let generation = UltraStarGeneration(versionValue: v.value) else {
                throw fail(v.line, "unsupported #VERSION '\(v.value)' (expected 1.x.y or 2.x.y)")
            }
            self.generation = generation
        }
        let ms = generation.timesInMilliseconds

        func number(_ key: String) throws(SongFileError) -> Double? {
            guard let tag = first[key] else { return nil }
            guard let value = SongNumbers.decimal(Substring(tag.value)) else {
                throw fail(tag.line, "#\(key) must be a number, found '\(tag.value)'")
            }
            return value
        }
        func integer(_ key: String) throws(SongFileError) -> Int? {
            guard let tag = first[key] else { return nil }
            guard let value = SongNumbers.integer(Substring(tag.value)) else {
                throw fail(tag.line, "#\(key) must be a whole number, found '\(tag.value)'")
            }
            return value
        }

        metadata.title = first["TITLE"]?.value ?? ""
        metadata.artist = first["ARTIST"]?.value ?? ""
        metadata.album = first["ALBUM"]?.value
        metadata.genre = first["GENRE"]?.value
        metadata.language = first["LANGUAGE"]?.value
        metadata.edition = first["EDITION"]?.value
        metadata.creator = first["CREATOR"]?.value ?? first["AUTHOR"]?.value
        metadata.audioFile = first["AUDIO"]?.value ?? first["MP3"]?.value
        metadata.vocalsFile = first["VOCALS"]?.value ?? first["VOCALSAUDIO"]?.value
        metadata.instrumentalFile = first["INSTRUMENTAL"]?.value ?? first["INSTRUMENTALAUDIO"]?.value
        metadata.videoFile = first["VIDEO"]?.value
        metadata.coverFile = first["COVER"]?.value
        metadata.backgroundFile = first["BACKGROUND"]?.value
        metadata.formatVersion = first["VERSION"]?.value
        hasVideo = metadata.videoFile != nil
        metadata.year = try integer("YEAR")

        if let bpmTag = first["BPM"] {
            guard let bpm = try number("BPM"), bpm > 0 else {
                throw fail(bpmTag.line, "#BPM must be a positive number, found '\(bpmTag.value)'")
            }
            self.bpm = bpm
        }
        gapMilliseconds = try number("GAP") ?? 0
        if let v = try number("VIDEOGAP") { metadata.videoGapSeconds = ms ? v / 1000 : v }
        if let v = try number("START") { metadata.startSeconds = ms ? v / 1000 : v }
        if let v = try number("END") { metadata.endSeconds = v / 1000 }
        if let v = try number("PREVIEWSTART") { metadata.previewStartSeconds = ms ? v / 1000 : v }
        metadata.medleyStartBeat = try integer("MEDLEYSTARTBEAT")
        metadata.medleyEndBeat = try integer("MEDLEYENDBEAT")
        medleyStartMs = try number("MEDLEYSTART")
        medleyEndMs = try number("MEDLEYEND")

        if let tag = first["RELATIVE"] {
            switch tag.value.lowercased() {
            case "yes": relative = true
            case "no": relative = false
            default: throw fail(tag.line, "#RELATIVE must be 'yes' or 'no', found '\(tag.value)'")
            }
            if relative && generation != .unversioned {
                throw fail(tag.line, "#RELATIVE is not part of format version \(metadata.formatVersion ?? "")")
            }
        }

        for (key, tag) in first {
            if let n = Self.isVoiceNameKey(key), key.hasPrefix("P") { voiceNames[n] = tag.value }
        }
        for (key, tag) in first {
            if let n = Self.isVoiceNameKey(key), key.hasPrefix("D"), voiceNames[n] == nil { voiceNames[n] = tag.value }
        }
        for (key, tag) in first where !Self.knownKeys.contains(key) && Self.isVoiceNameKey(key) == nil {
            metadata.otherTags[key] = tag.value
        }

    }

    /// Checks the headers a song cannot do without (after the body parsed, so a garbage
    /// body is reported as such). `#ARTIST` may be missing: players show the song anyway.
    func validateRequired(path: String, bodyLine: Int) throws(SongFileError) {
        func fail(_ message: String) -> SongFileError { SongFileError(path: path, line: bodyLine, message: message) }
        if metadata.title.isEmpty { throw fail("missing required header #TITLE") }
        if bpm == nil { throw fail("missing required header #BPM: notes cannot be timed") }
        if metadata.audioFile == nil && !hasVideo {
            throw fail("missing required header \(generation == .v2 ? "#AUDIO" : "#MP3 (or #AUDIO)")")
        }
    }

    /// Beats to seconds: pre-2.0 files count quarter beats (`60 / (BPM·4)`), 2.0 files whole ones.
    var clock: BeatClock {
        let bpm = bpm ?? 1
        return BeatClock(bpm: generation == .v2 ? bpm / 4 : bpm, gapSeconds: gapMilliseconds / 1000)
    }
}
