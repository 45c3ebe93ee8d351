/// Judges one detection beat from the (mic-delay corrected) samples that fall in it.
///
/// A beat counts as sung when at least half of its samples are voiced above the gate;
/// its pitch is the median of the voiced samples' folded deviations, so one stray
/// detector frame cannot flip the verdict. An unpitched beat (rap, participation slot) counts
/// when at least half of its samples are sound and the detector heard a voice near it
/// (`VoiceEvidence`).
public struct BeatJudge: Sendable {
    public var configuration: ScoringConfiguration

    public init(configuration: ScoringConfiguration) {
        self.configuration = configuration
    }

    /// - Parameter voiceNearby: for unpitched notes only, whether `VoiceEvidence` heard a voice
    ///   near the beat (without it, sound earns nothing); pitched beats ask the samples themselves.
    public func judge(_ samples: ArraySlice<PitchSample>, note: ReferenceNote, voiceNearby: Bool = false) -> BeatJudgement {
        guard !samples.isEmpty, note.weight > 0 else { return .miss }
        let gate = configuration.rules.voicingGateDb
        guard let target = note.targetMidi, note.kind.isPitched else {
            // Rap, golden rap and participation slots: sound above the sound gate, next to a voice.
            guard voiceNearby else { return .miss }
            let soundGate = configuration.rules.soundGateDb
            let sounding = samples.reduce(0) { $0 + ($1.levelDb >= soundGate ? 1 : 0) }
            return BeatJudgement(credit: sounding * 2 >= samples.count ? 1 : 0, deviation: nil)
        }
        var deviations: [Double] = []
        deviations.reserveCapacity(samples.count)
        for sample in samples where sample.levelDb >= gate {
            if let midi = sample.midi { deviations.append(ScoringRules.foldedDeviation(sung: midi, target: target)) }
        }
        guard deviations.count * 2 >= samples.count, !deviations.isEmpty else { return .miss }
        let deviation = Self.median(deviations)
        let credit: Double
        switch configuration.mode {
        case .ultraStar:
            credit = configuration.isHit(deviation: deviation) ? 1 : 0
        case .practice:
            credit = ScoringRules.practiceCredit(deviation: deviation)
        }
        return BeatJudgement(credit: credit, deviation: deviation)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
