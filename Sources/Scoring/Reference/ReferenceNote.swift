import SongModel

/// A note as the judge sees it: media-time beats and a transposed target.
public struct ReferenceNote: Sendable, Equatable {
    public var kind: NoteKind
    public var text: String
    /// MIDI target after the key shift (nil for participation slots).
    public var targetMidi: Double?
    /// Media seconds of the first beat's start.
    public var start: Double
    /// Media seconds per detection beat.
    public var beatDuration: Double
    public var beatCount: Int

    public init(kind: NoteKind, text: String, targetMidi: Double?, start: Double, beatDuration: Double, beatCount: Int) {
        self.kind = kind
        self.text = text
        self.targetMidi = targetMidi
        self.start = start
        self.beatDuration = beatDuration
        self.beatCount = beatCount
    }

    public var end: Double { start + beatDuration * Double(beatCount) }
    public var weight: Double { ScoringRules.weight(of: kind) }
    public var weightedBeats: Double { weight * Double(beatCount) }

    public func beatWindow(_ beat: Int) -> Range<Double> {
        let s = start + beatDuration * Double(beat)
        return s..<(s + beatDuration)
    }
}

/// One lyric line with the notes judged in it.
public struct ReferenceLine: Sendable, Equatable {
    public var index: Int
    public var text: String
    public var start: Double
    public var end: Double
    public var notes: [ReferenceNote]

    public init(index: Int, text: String, start: Double, end: Double, notes: [ReferenceNote]) {
        self.index = index
        self.text = text
        self.start = start
        self.end = end
        self.notes = notes
    }

    public var weightedBeats: Double { notes.reduce(0) { $0 + $1.weightedBeats } }
    /// The session closes the line once the corrected time passes this: the end of its last
    /// note (a line's display may last until the next line), or the line's end without notes.
    public var judgedEnd: Double { notes.map(\.end).max() ?? end }
}
