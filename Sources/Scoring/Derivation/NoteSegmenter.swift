import SongModel

/// Turns a vocal guide track's pitch samples into reference notes: median-filtered MIDI
/// pitch, runs of one semitone, short runs dropped, repeated notes across tiny gaps
/// merged, then snapped to a beat grid.
public struct NoteSegmenter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Frames in the median filter (odd).
        public var medianWindow: Int
        /// Runs shorter than this are detector noise or ornaments, not notes.
        public var minimumNoteSeconds: Double
        /// Two runs of the same pitch this close together are one note (a consonant, a breath).
        public var mergeGapSeconds: Double
        public var voicingGateDb: Double

        public init(medianWindow: Int = 5, minimumNoteSeconds: Double = 0.1, mergeGapSeconds: Double = 0.08, voicingGateDb: Double = -45) {
            self.medianWindow = medianWindow
            self.minimumNoteSeconds = minimumNoteSeconds
            self.mergeGapSeconds = mergeGapSeconds
            self.voicingGateDb = voicingGateDb
        }
    }

    /// A derived note in media seconds.
    public struct Segment: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var midi: Int

        public init(start: Double, end: Double, midi: Int) {
            self.start = start
            self.end = end
            self.midi = midi
        }
    }

    /// The default grid for derived notes: 300 BPM, so one detection beat is 50 ms.
    public static let defaultClock = BeatClock(bpm: 300, gapSeconds: 0)

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Segments a time-ordered, evenly spaced sample stream.
    public func segments(_ samples: [PitchSample]) -> [Segment] {
        guard samples.count > 1 else { return [] }
        let hop = (samples.last!.time - samples.first!.time) / Double(samples.count - 1)
        let filtered = medianFiltered(samples)
        var runs: [Segment] = []
        var current: Segment?
        for (i, pitch) in filtered.enumerated() {
            let t = samples[i].time
            let rounded = pitch.map { Int($0.rounded()) }
            if let open = current, rounded == open.midi {
                current!.end = t + hop
                continue
            }
            if let open = current { runs.append(open) }
            current = rounded.map { Segment(start: t, end: t + hop, midi: $0) }
        }
        if let open = current { runs.append(open) }
        return merged(runs.filter { $0.end - $0.start >= configuration.minimumNoteSeconds })
    }

    /// Snaps segments to `clock`'s beats; notes never overlap and last at least one beat.
    public func notes(from segments: [Segment], clock: BeatClock = NoteSegmenter.defaultClock) -> [Note] {
        var notes: [Note] = []
        for segment in segments {
            var start = Int(clock.beat(atSeconds: segment.start).rounded())
            let end = Int(clock.beat(atSeconds: segment.end).rounded())
            if let previous = notes.last { start = max(start, previous.endBeat) }
            guard end > start else { continue }
            notes.append(Note(kind: .normal, startBeat: start, lengthBeats: end - start, pitch: segment.midi - 60))
        }
        return notes
    }

    private func medianFiltered(_ samples: [PitchSample]) -> [Double?] {
        let half = max(0, configuration.medianWindow / 2)
        let voiced: [Double?] = samples.map { $0.levelDb >= configuration.voicingGateDb ? $0.midi : nil }
        return voiced.indices.map { i in
            guard voiced[i] != nil else { return nil }
            let window = voiced[max(0, i - half)...min(voiced.count - 1, i + half)].compactMap { $0 }.sorted()
            return window[window.count / 2]
        }
    }

    private func merged(_ runs: [Segment]) -> [Segment] {
        var out: [Segment] = []
        for run in runs {
            if let last = out.last, last.midi == run.midi, run.start - last.end <= configuration.mergeGapSeconds {
                out[out.count - 1].end = run.end
            } else {
                out.append(run)
            }
        }
        return out
    }
}
