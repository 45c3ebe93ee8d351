import SongModel
import Testing
@testable import Scoring

@Suite struct RulesTests {
    @Test func weightsFollowUltraStar() {
        #expect(ScoringRules.weight(of: .freestyle) == 0)
        #expect(ScoringRules.weight(of: .normal) == 1)
        #expect(ScoringRules.weight(of: .golden) == 2)
        #expect(ScoringRules.weight(of: .rap) == 1)
        #expect(ScoringRules.weight(of: .goldenRap) == 2)
    }

    @Test func foldingPicksTheNearestOctave() {
        #expect(ScoringRules.foldedDeviation(sung: 48, target: 60) == 0)
        #expect(ScoringRules.foldedDeviation(sung: 84.5, target: 60) == 0.5)
        #expect(ScoringRules.foldedDeviation(sung: 59.5, target: 72) == -0.5)
        #expect(ScoringRules.foldedDeviation(sung: 65, target: 60) == 5)
        #expect(ScoringRules.foldedDeviation(sung: 67, target: 60) == -5)
        #expect(ScoringRules.foldedDeviation(sung: 63, target: 60) == 3)
    }

    @Test func toleranceByDifficulty() {
        #expect(Difficulty.easy.toleranceSemitones == 2)
        #expect(Difficulty.medium.toleranceSemitones == 1)
        #expect(Difficulty.hard.toleranceSemitones == 0.5)
        let note = ReferenceNote(kind: .normal, text: "la", targetMidi: 60, start: 0, beatDuration: 0.1, beatCount: 1)
        func credit(_ sung: Double, _ difficulty: Difficulty) -> Double {
            let samples = (0..<5).map { PitchSample(time: Double($0) * 0.02, midi: sung, levelDb: -20) }
            return BeatJudge(configuration: .init(difficulty: difficulty)).judge(samples[...], note: note).credit
        }
        #expect(credit(61.5, .easy) == 1)
        #expect(credit(61.5, .medium) == 0)
        #expect(credit(59.2, .medium) == 1)
        #expect(credit(59.2, .hard) == 0)
        #expect(credit(60.4, .hard) == 1)
        #expect(credit(62.5, .easy) == 0)
        #expect(credit(48.4, .hard) == 1, "an octave lower is folded")
    }

    @Test func beatNeedsMostlyVoicedSamplesAboveTheGate() {
        let note = ReferenceNote(kind: .normal, text: "la", targetMidi: 60, start: 0, beatDuration: 0.1, beatCount: 1)
        let judge = BeatJudge(configuration: .init())
        let belowTheDetectorsFloor = (0..<4).map { PitchSample(time: Double($0) * 0.02, midi: 60, levelDb: -71) }
        #expect(judge.judge(belowTheDetectorsFloor[...], note: note).credit == 0)
        let quietButHeard = (0..<4).map { PitchSample(time: Double($0) * 0.02, midi: 60, levelDb: -65) }
        #expect(judge.judge(quietButHeard[...], note: note).credit == 1, "the detector's voicing decides above its floor")
        let mostlyUnvoiced = [60, nil, nil, nil].enumerated().map { PitchSample(time: Double($0.offset) * 0.02, midi: $0.element, levelDb: -20) }
        #expect(judge.judge(mostlyUnvoiced[...], note: note).credit == 0)
        let oneStray = [60, 60, 70, 60.2].enumerated().map { PitchSample(time: Double($0.offset) * 0.02, midi: $0.element, levelDb: -20) }
        #expect(judge.judge(oneStray[...], note: note).credit == 1)
    }

    /// Notes sung with a fade into their end (breath running out), the same singing at three
    /// microphone gains: while the detector still hears the fade (down to −70 dBFS while it holds a
    /// fading note), the score does not move.
    @Test func aFadingSingerScoresTheSameOnAQuieterMicrophone() {
        let line = ReferenceLine(index: 0, text: "la la la", start: 0, end: 3, notes: (0..<3).map { (k: Int) in
            ReferenceNote(kind: .normal, text: "la", targetMidi: Double(60 + 2 * k), start: Double(k), beatDuration: 0.1, beatCount: 10)
        })
        let reference = ReferencePart(name: "P1", basis: .notes, lines: [line])
        func total(gainDb: Double) -> Int {
            var session = ScoringSession(reference: reference, configuration: .init(difficulty: .medium, micDelay: 0))
            session.feed(contentsOf: (0..<300).map { i in
                let t = Double(i) * 0.01, within = t - t.rounded(.down)
                let level = -25 - 32 * within + gainDb  // −25 → −57 dBFS over each note
                return PitchSample(time: t, midi: level >= -70 ? 60 + 2 * t.rounded(.down) : nil, levelDb: level)
            })
            return session.finish().total
        }
        #expect(total(gainDb: 0) == 10000)
        #expect(total(gainDb: -10) == 10000, "10 dB less gain: the fades are still heard")
        #expect(total(gainDb: -20) < 10000, "below the detector's floor the fades are silence")
    }

    @Test func rapCountsSoundNextToAVoiceAtAnyPitch() {
        let rap = ReferenceNote(kind: .rap, text: "yo", targetMidi: 60, start: 0, beatDuration: 0.1, beatCount: 1)
        let judge = BeatJudge(configuration: .init())
        let hiss = (0..<4).map { PitchSample(time: Double($0) * 0.02, midi: nil, levelDb: -55) }
        #expect(judge.judge(hiss[...], note: rap, voiceNearby: true).credit == 0, "a quiet room's noise does not rap")
        let unpitchedShout = (0..<4).map { PitchSample(time: Double($0) * 0.02, midi: nil, levelDb: -15) }
        #expect(judge.judge(unpitchedShout[...], note: rap, voiceNearby: true).credit == 1, "a consonant beside its vowel")
        #expect(judge.judge(unpitchedShout[...], note: rap, voiceNearby: false).credit == 0, "sound with no voice near it")
        let wrongPitch = (0..<4).map { PitchSample(time: Double($0) * 0.02, midi: 67, levelDb: -15) }
        #expect(judge.judge(wrongPitch[...], note: rap, voiceNearby: true).credit == 1)
        let silence = (0..<4).map { PitchSample(time: Double($0) * 0.02, midi: nil, levelDb: -80) }
        #expect(judge.judge(silence[...], note: rap, voiceNearby: true).credit == 0)
    }

    /// A line of rap notes. The speakers alone are loud at the microphone, but the detector,
    /// knowing the backing, hears no voice in them: nothing. A rapper's voiced vowels with
    /// 60 ms consonants between them: every beat.
    @Test func theSpeakersDoNotRapForASilentSinger() {
        let line = ReferenceLine(index: 0, text: "yo yo", start: 0, end: 2, notes: [
            ReferenceNote(kind: .rap, text: "yo", targetMidi: 60, start: 0, beatDuration: 0.1, beatCount: 10),
            ReferenceNote(kind: .goldenRap, text: "yo", targetMidi: 62, start: 1, beatDuration: 0.1, beatCount: 10),
        ])
        let reference = ReferencePart(name: "P1", basis: .notes, lines: [line])
        func total(_ sample: (Double) -> PitchSample) -> Int {
            var session = ScoringSession(reference: reference, configuration: .init(micDelay: 0))
            session.feed(contentsOf: (0..<200).map { sample(Double($0) * 0.01) })
            return session.finish().total
        }
        #expect(total { PitchSample(time: $0, midi: nil, levelDb: -22) } == 0)
        #expect(total { t in
            let consonant = (t * 100).rounded().truncatingRemainder(dividingBy: 20) < 6
            return PitchSample(time: t, midi: consonant ? nil : 50 + 3 * (t * 10).rounded(.down).truncatingRemainder(dividingBy: 5), levelDb: consonant ? -30 : -20)
        } == 10000)
    }

    /// A rap line whose only voice comes right after its last beat: the live room closes the line
    /// before that audio is in, so `karaoke score`, which has it, must not use it either.
    @Test func aRapLineIsJudgedLiveAsOffline() {
        let line = ReferenceLine(index: 0, text: "yo", start: 0, end: 0.2, notes: [
            ReferenceNote(kind: .rap, text: "yo", targetMidi: 60, start: 0, beatDuration: 0.1, beatCount: 2),
        ])
        let reference = ReferencePart(name: "P1", basis: .notes, lines: [line])
        let samples = (0..<40).map { i in
            let t = Double(i) * 0.01
            return PitchSample(time: t, midi: t >= 0.2 && t < 0.3 ? 62 : nil, levelDb: -20)
        }
        var offline = ScoringSession(reference: reference, configuration: .init(micDelay: 0))
        offline.feed(contentsOf: samples)
        var live = ScoringSession(reference: reference, configuration: .init(micDelay: 0))
        live.feed(contentsOf: samples.filter { $0.time < 0.2 })
        let closed = live.advance(to: 0.2)
        #expect(closed.count == 1)
        #expect(offline.finish().total == live.finish().total)
    }

    @Test func lineBonusAndPerfection() {
        let rules = ScoringRules.ultraStar
        #expect(ScoringRules.perfection(lineScore: 98, lineMax: 100) == 1)
        #expect(ScoringRules.perfection(lineScore: 49, lineMax: 100) == 0.5)
        #expect(ScoringRules.perfection(lineScore: 0, lineMax: 100) == 0)
        #expect(ScoringRules.perfection(lineScore: 0, lineMax: 1.5) == 0, "tiny lines get no free bonus")
        #expect(rules.lineBonus(perfection: 1, judgedLineCount: 4) == 250)
        #expect(rules.lineBonus(perfection: 0.5, judgedLineCount: 10) == 50)
    }

    @Test func ratingsHaveTheirThresholds() {
        #expect(LineRating(perfection: 1) == .perfect)
        #expect(LineRating(perfection: 0.95) == .perfect)
        #expect(LineRating(perfection: 0.94) == .great)
        #expect(LineRating(perfection: 0.75) == .great)
        #expect(LineRating(perfection: 0.5) == .good)
        #expect(LineRating(perfection: 0.25) == .notBad)
        #expect(LineRating(perfection: 0.24) == .bad)
        #expect(LineRating.notBad.displayName == "Not bad")
    }

    @Test func practiceCreditFallsLinearly() {
        #expect(ScoringRules.practiceCredit(deviation: 0.3) == 1)
        #expect(ScoringRules.practiceCredit(deviation: -0.5) == 1)
        #expect(abs(ScoringRules.practiceCredit(deviation: 1.0) - 0.5) < 1e-12)
        #expect(abs(ScoringRules.practiceCredit(deviation: -1.25) - 0.25) < 1e-12)
        #expect(ScoringRules.practiceCredit(deviation: 1.5) == 0)
        #expect(ScoringRules.practiceCredit(deviation: 3) == 0)
    }
}
