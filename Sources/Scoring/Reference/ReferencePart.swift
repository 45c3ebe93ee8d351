import SongModel

public enum ReferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchPart(requested: Int, available: Int)

    public var description: String {
        switch self {
        case .noSuchPart(let requested, let available):
            "part \(requested + 1) does not exist: the song has \(available) part(s)"
        }
    }
}

/// The reference one singer is judged against: one voice part, transposed.
public struct ReferencePart: Sendable, Equatable {
    public var name: String
    public var basis: ScoreBasis
    public var lines: [ReferenceLine]

    /// Length of a participation slot; lyrics-only songs are judged in these steps.
    public static let participationSlotSeconds = 0.1

    public init(name: String, basis: ScoreBasis, lines: [ReferenceLine]) {
        self.name = name
        self.basis = basis
        self.lines = lines
    }

    /// Builds the reference for `song.parts[partIndex]`. A part with notes is judged on
    /// them (beats from the song's beat clock, else from the syllable times); a part
    /// without notes gets timing-only participation slots over its syllables.
    /// `derived` marks notes that came from a guide track rather than the song file.
    public init(song: Song, partIndex: Int, keyShift: Int, derived: Bool = false) throws(ReferenceError) {
        guard song.parts.indices.contains(partIndex) else {
            throw .noSuchPart(requested: partIndex, available: song.parts.count)
        }
        let part = song.parts[partIndex]
        let hasNotes = part.lines.contains { $0.syllables.contains { $0.note != nil } }
        name = part.name
        basis = hasNotes ? (derived ? .derivedNotes : .notes) : .participation
        lines = part.lines.enumerated().map { index, line in
            let notes = hasNotes
                ? Self.noteReferences(line, clock: song.beatClock, keyShift: keyShift)
                : Self.participationSlots(line)
            return ReferenceLine(index: index, text: line.text, start: line.start, end: line.end, notes: notes)
        }
    }

    public var weightedBeats: Double { lines.reduce(0) { $0 + $1.weightedBeats } }
    /// Lines that share the line bonus: those with something to judge.
    public var judgedLineCount: Int { lines.filter { $0.weightedBeats > 0 }.count }

    private static func noteReferences(_ line: LyricLine, clock: BeatClock?, keyShift: Int) -> [ReferenceNote] {
        line.syllables.compactMap { syllable in
            guard let note = syllable.note, note.lengthBeats > 0 else { return nil }
            let start: Double
            let beat: Double
            if let clock {
                start = clock.seconds(atBeat: note.startBeat)
                beat = clock.secondsPerBeat
            } else {
                start = syllable.start
                beat = (syllable.end - syllable.start) / Double(note.lengthBeats)
            }
            return ReferenceNote(
                kind: note.kind, text: syllable.text, targetMidi: Double(note.midi + keyShift),
                start: start, beatDuration: beat, beatCount: note.lengthBeats)
        }
    }

    /// Rap-like slots (any voiced sound counts) over each timed syllable of the line.
    private static func participationSlots(_ line: LyricLine) -> [ReferenceNote] {
        let spans: [(String, Double, Double)] = line.syllables.isEmpty
            ? [(line.text, line.start, line.end)]
            : line.syllables.map { ($0.text, $0.start, $0.end) }
        return spans.compactMap { text, start, end in
            let duration = end - start
            guard duration > 0 else { return nil }
            let count = max(1, Int((duration / participationSlotSeconds).rounded()))
            return ReferenceNote(
                kind: .rap, text: text, targetMidi: nil, start: start,
                beatDuration: duration / Double(count), beatCount: count)
        }
    }
}
