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

    /// Interprets the tags. A duplicate of an interpreted key with a different value is an
    /// error in strict mode (which one would the author mean?); leniently the first one wins,
    /// as identical repeats do.
    init(tags: [UltraStarTag], assumptions: inout ReadingAssumptions) throws(SongFileError) {
        var first: [String: UltraStarTag] = [:]
        for tag in tags {
            let interpreted = Self.knownKeys.contains(tag.key) || Self.isVoiceNameKey(tag.key) != nil
            if let earlier = first[tag.key] {
                if interpreted && earlier.value != tag.value {
                    try assumptions.assume(
                        line: tag.line,
                        problem: "duplicate header #\(tag.key) ('\(tag.value)'; line \(earlier.line) says '\(earlier.value)')",
                        assumption: "line \(earlier.line)'s value is used")
                }
                continue
            }
            first[tag.key] = tag
        }

        if let v = first["VERSION"] {
            if let generation = UltraStarGeneration(versionValue: v.value) {
                self.generation = generation
            } else {
                // "v1.1.0", "1.1", "2" … : read by the major number when there is one.
                let lenient = UltraStarGeneration(lenientVersionValue: v.value)
                try assumptions.assume(
                    line: v.line, problem: "unsupported #VERSION '\(v.value)' (expected 1.x.y or 2.x.y)",
                    assumption: lenient.map { "read as version \($0.name)" } ?? "read as an unversioned file")
                self.generation = lenient ?? .unversioned
            }
        }
        let ms = generation.timesInMilliseconds

        /// A number tag; a value that is not one is ignored (leniently) with `ignored` said.
        func number(_ key: String, _ ignored: String = "the tag is ignored") throws(SongFileError) -> Double? {
            guard let tag = first[key] else { return nil }
            guard let value = SongNumbers.decimal(Substring(tag.value)) else {
                try assumptions.assume(line: tag.line, problem: "#\(key) must be a number, found '\(tag.value)'", assumption: ignored)
                return nil
            }
            return value
        }
        func integer(_ key: String) throws(SongFileError) -> Int? {
            guard let tag = first[key] else { return nil }
            guard let value = SongNumbers.integer(Substring(tag.value)) else {
                try assumptions.assume(line: tag.line, problem: "#\(key) must be a whole number, found '\(tag.value)'",
                                       assumption: "the tag is ignored")
                return nil
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
            // Without a tempo no note has a time: always an error.
            guard let bpm = SongNumbers.decimal(Substring(bpmTag.value)) else {
                throw assumptions.error(line: bpmTag.line, "#BPM must be a number, found '\(bpmTag.value)': notes cannot be timed")
            }
            guard bpm > 0 else {
                throw assumptions.error(line: bpmTag.line, "#BPM must be a positive number, found '\(bpmTag.value)'")
            }
            self.bpm = bpm
        }
        gapMilliseconds = try number("GAP", "#GAP:0 is assumed (notes may be early)") ?? 0
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
            default:
                try assumptions.assume(line: tag.line, problem: "#RELATIVE must be 'yes' or 'no', found '\(tag.value)'",
                                       assumption: "'no' is assumed")
            }
            if relative && generation != .unversioned {
                try assumptions.assume(line: tag.line, problem: "#RELATIVE is not part of format version \(metadata.formatVersion ?? "")",
                                       assumption: "the notes are read as relative")
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
    /// Leniently a missing `#TITLE` becomes the file's name and a song without audio is read
    /// as lyrics only; only a missing `#BPM` (no note can be timed) is always an error.
    func validateRequired(bodyLine: Int, metadata: inout SongMetadata,
                          assumptions: inout ReadingAssumptions) throws(SongFileError) {
        if bpm == nil { throw assumptions.error(line: bodyLine, "missing required header #BPM: notes cannot be timed") }
        if metadata.title.isEmpty {
            let name = String(assumptions.path.split(separator: "/").last ?? "")
            let stem = name.contains(".") ? String(name[..<name.lastIndex(of: ".")!]) : name
            try assumptions.assume(line: bodyLine, problem: "missing required header #TITLE",
                                   assumption: "the file name '\(stem)' is used as title")
            metadata.title = stem
        }
        if metadata.audioFile == nil && !hasVideo {
            try assumptions.assume(line: bodyLine,
                                   problem: "missing required header \(generation == .v2 ? "#AUDIO" : "#MP3 (or #AUDIO)")",
                                   assumption: "read as a lyrics-only song (no audio named)")
        }
    }

    /// Beats to seconds: pre-2.0 files count quarter beats (`60 / (BPM·4)`), 2.0 files whole ones.
    var clock: BeatClock {
        let bpm = bpm ?? 1
        return BeatClock(bpm: generation == .v2 ? bpm / 4 : bpm, gapSeconds: gapMilliseconds / 1000)
    }
}
