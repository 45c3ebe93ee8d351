import SongModel

/// Scores one singer on one part, incrementally, as the song plays.
///
/// Feed samples as they arrive (stamped with the media time of their capture) and call
/// `advance(to:)` with the playback position; a line is closed, judged and returned once
/// `position − micDelay` has passed its last note, so a late note of the previous line is
/// still judged after the display has moved on. `finish()` closes whatever is left.
/// A value type: the live room keeps it inside its scoring actor; it never runs on the audio thread.
public struct ScoringSession: Sendable {
    public let reference: ReferencePart
    public private(set) var configuration: ScoringConfiguration
    private let judge: BeatJudge
    private let pointsPerWeightedBeat: Double
    private let judgedLineCount: Int
    /// Mic-delay corrected samples not yet needed by a closed line, sorted by time.
    private var samples: [PitchSample] = []
    public private(set) var nextLineIndex = 0
    public private(set) var lineResults: [LineResult] = []

    /// A sample this close to an empty beat window stands in for it (detector hops can
    /// be longer than short beats).
    static let nearestSampleReach = 0.03
    /// How far outside a line its judging still looks: the nearest sample, a bridged gap, a voice
    /// beside an unpitched beat.
    private var lineReach: Double {
        Self.nearestSampleReach + max(configuration.rules.unvoicedBridgeSeconds, VoiceEvidence.reach)
    }

    public init(reference: ReferencePart, configuration: ScoringConfiguration) {
        self.reference = reference
        self.configuration = configuration
        judge = BeatJudge(configuration: configuration)
        let weighted = reference.weightedBeats
        pointsPerWeightedBeat = weighted > 0 ? configuration.rules.notesTotal / weighted : 0
        judgedLineCount = reference.judgedLineCount
    }

    public init(song: Song, partIndex: Int = 0, configuration: ScoringConfiguration, derivedNotes: Bool = false) throws(ReferenceError) {
        let reference = try ReferencePart(song: song, partIndex: partIndex, keyShift: configuration.keyShift, derived: derivedNotes)
        self.init(reference: reference, configuration: configuration)
    }

    public var isFinished: Bool { nextLineIndex >= reference.lines.count }

    /// The microphone's path moved during the run (a phone whose capture buffering grew, as the
    /// backing heard in its own stream shows): samples fed from now on are placed with `seconds`,
    /// and lines close that much later; lines already closed keep their judgement.
    public mutating func setMicDelay(_ seconds: Double) {
        configuration.micDelay = seconds
    }

    /// Results so far (lines closed up to now).
    public var result: PerformanceResult {
        PerformanceResult(partName: reference.name, basis: reference.basis, configuration: configuration, lines: lineResults)
    }

    public mutating func feed(_ sample: PitchSample) {
        var corrected = sample
        corrected.time -= configuration.micDelayMedia
        if let last = samples.last, last.time > corrected.time {
            samples.insert(corrected, at: Self.firstIndex(in: samples[...], notBefore: corrected.time))
        } else {
            samples.append(corrected)
        }
    }

    public mutating func feed<S: Sequence>(contentsOf samples: S) where S.Element == PitchSample {
        for sample in samples { feed(sample) }
    }

    /// Closes every line whose judged end lies before `mediaTime − micDelay` and returns their results.
    public mutating func advance(to mediaTime: Double) -> [LineResult] {
        let judgedUpTo = mediaTime - configuration.micDelayMedia
        var closed: [LineResult] = []
        while nextLineIndex < reference.lines.count, reference.lines[nextLineIndex].judgedEnd <= judgedUpTo {
            closed.append(closeNextLine())
        }
        return closed
    }

    /// Judges every remaining line and returns the whole performance.
    public mutating func finish() -> PerformanceResult {
        while nextLineIndex < reference.lines.count { _ = closeNextLine() }
        return result
    }

    private mutating func closeNextLine() -> LineResult {
        let line = reference.lines[nextLineIndex]
        let lineResult = judgeLine(line)
        lineResults.append(lineResult)
        nextLineIndex += 1
        // Keep only samples the following lines can still use.
        if nextLineIndex < reference.lines.count {
            let next = reference.lines[nextLineIndex]
            let keepFrom = min(next.notes.first?.start ?? next.start, line.judgedEnd)
                - lineReach
            samples.removeFirst(Self.firstIndex(in: samples[...], notBefore: keepFrom))
        } else {
            samples.removeAll()
        }
        return lineResult
    }

    private func judgeLine(_ line: ReferenceLine) -> LineResult {
        // The line's samples with consonant gaps inside on-pitch singing filled in.
        let reach = lineReach
        let first = line.notes.map(\.start).min() ?? line.start
        let lineSamples = GapBridge(configuration: configuration).bridge(
            samples[Self.firstIndex(in: samples[...], notBefore: first - reach)..<Self.firstIndex(
                in: samples[...], notBefore: line.judgedEnd + reach)],
            notes: line.notes.sorted { $0.start < $1.start })
        var score = 0.0
        var noteResults: [NoteResult] = []
        for note in line.notes {
            var credited = 0.0
            var deviationSum = 0.0
            var deviationCount = 0
            if note.weight > 0 {
                for beat in 0..<note.beatCount {
                    let window = note.beatWindow(beat)
                    let voiceNearby = !(note.targetMidi != nil && note.kind.isPitched)
                        && VoiceEvidence.heard(
                            in: lineSamples, around: window, lineEnd: line.judgedEnd,
                            voicingGateDb: configuration.rules.voicingGateDb)
                    let verdict = judge.judge(Self.samples(in: lineSamples, for: window), note: note, voiceNearby: voiceNearby)
                    credited += verdict.credit
                    if let d = verdict.deviation {
                        deviationSum += d
                        deviationCount += 1
                    }
                }
            }
            score += credited * note.weight * pointsPerWeightedBeat
            noteResults.append(NoteResult(
                text: note.text, kind: note.kind, targetMidi: note.targetMidi, beats: note.beatCount,
                creditedBeats: credited,
                deviationCents: deviationCount > 0 ? 100 * deviationSum / Double(deviationCount) : nil))
        }
        let maxScore = line.weightedBeats * pointsPerWeightedBeat
        let perfection = ScoringRules.perfection(lineScore: score, lineMax: maxScore)
        let maxBonus = maxScore > 0 ? configuration.rules.lineBonus(perfection: 1, judgedLineCount: judgedLineCount) : 0
        return LineResult(
            lineIndex: line.index, text: line.text, start: line.start, end: line.end, score: score,
            maxScore: maxScore, bonus: maxBonus * perfection, maxBonus: maxBonus, perfection: perfection,
            rating: LineRating(perfection: perfection), notes: noteResults)
    }

    private static func samples(in samples: [PitchSample], for window: Range<Double>) -> ArraySlice<PitchSample> {
        let lower = firstIndex(in: samples[...], notBefore: window.lowerBound)
        let upper = firstIndex(in: samples[...], notBefore: window.upperBound)
        if lower < upper { return samples[lower..<upper] }
        // Empty window: borrow the nearest sample if it is close enough.
        var best: Int?
        var bestDistance = nearestSampleReach
        for i in [lower - 1, lower] where samples.indices.contains(i) {
            let t = samples[i].time
            let distance = t < window.lowerBound ? window.lowerBound - t : t - window.upperBound
            if distance <= bestDistance {
                best = i
                bestDistance = distance
            }
        }
        guard let best else { return [] }
        return samples[best...best]
    }

    /// Index of the first sample with `time >= t` (binary search).
    static func firstIndex(in samples: ArraySlice<PitchSample>, notBefore t: Double) -> Int {
        var low = samples.startIndex
        var high = samples.endIndex
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].time < t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
