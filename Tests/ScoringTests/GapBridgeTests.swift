import Foundation
import Testing
@testable import Scoring

/// Issue 11: short unvoiced gaps (consonants) inside on-pitch singing are forgiven;
/// silence and off-pitch talking gain nothing.
@Suite struct GapBridgeTests {
    /// One line of 3 fast notes (6 beats of 50 ms each, like a 300 BPM song): C4, E4, C4.
    let reference: ReferencePart = {
        let notes = [60.0, 64, 60].enumerated().map { i, midi in
            ReferenceNote(kind: .normal, text: "la", targetMidi: midi, start: 1 + 0.3 * Double(i), beatDuration: 0.05, beatCount: 6)
        }
        return ReferencePart(name: "P1", basis: .notes, lines: [ReferenceLine(index: 0, text: "la la la", start: 1, end: 1.9, notes: notes)])
    }()

    func target(at t: Double) -> Double? {
        reference.lines[0].notes.first { $0.start <= t && t < $0.end }?.targetMidi
    }

    /// Samples every 10 ms over 0…3 s.
    func samples(_ pitch: (Double) -> Double?) -> [PitchSample] {
        (0..<300).map { i in
            let t = Double(i) * 0.01
            let midi = pitch(t)
            return PitchSample(time: t, midi: midi, levelDb: midi == nil ? -70 : -20)
        }
    }

    func total(_ samples: [PitchSample], bridge: Double = ScoringRules.defaultUnvoicedBridgeSeconds, mode: ScoringMode = .ultraStar) -> Int {
        let configuration = ScoringConfiguration(mode: mode, micDelay: 0, rules: ScoringRules(unvoicedBridgeSeconds: bridge))
        var session = ScoringSession(reference: reference, configuration: configuration)
        session.feed(contentsOf: samples)
        return session.finish().total
    }

    /// The singer is on pitch except in `gaps` (unvoiced, below the gate).
    func singer(gaps: [Range<Double>]) -> [PitchSample] {
        samples { t in gaps.contains { $0.contains(t) } ? nil : self.target(at: t) }
    }

    @Test func aSixtyMillisecondConsonantInsideANoteIsForgiven() {
        let consonant = singer(gaps: [1.42..<1.48])
        #expect(total(consonant, bridge: 0) < 9500, "without bridging the gap costs beats and the line's Perfect")
        #expect(total(consonant) == 10000)
    }

    @Test func aConsonantBetweenTwoNotesIsForgiven() {
        // "la-ta": the closure of the t starts in the first note and ends 40 ms into the second.
        let consonant = singer(gaps: [1.27..<1.34])
        #expect(total(consonant, bridge: 0) < 10000)
        #expect(total(consonant) == 10000)
    }

    @Test func longGapsAreNotBridged() {
        let breath = singer(gaps: [1.40..<1.56])
        #expect(total(breath) == total(breath, bridge: 0))
        #expect(total(breath) < 10000)
    }

    @Test func silenceGainsNothing() {
        #expect(total(samples { _ in nil }) == 0)
    }

    @Test func talkingOffPitchGainsNothing() {
        // Speech: voiced syllables 120 ms long wandering 2–4 semitones from the melody, 60 ms consonants between.
        let talker = samples { t in
            guard let target = self.target(at: t) ?? (t > 0.9 && t < 2 ? 60 : nil) else { return nil }
            let phase = t.truncatingRemainder(dividingBy: 0.18)
            return phase < 0.12 ? target + 3 + sin(t * 17) : nil
        }
        #expect(total(talker) == total(talker, bridge: 0))
        #expect(total(talker) == 0)
    }

    @Test func aWrongNoteAfterTheGapIsNotCovered() {
        // On pitch, a gap, then the wrong pitch: the gap stays a miss.
        let wrong = samples { t in
            if (1.42..<1.48).contains(t) { return nil }
            if t >= 1.48 && t < 1.6 { return 67 }
            return self.target(at: t)
        }
        #expect(total(wrong) == total(wrong, bridge: 0))
    }

    @Test func practiceModeKeepsContinuousCredit() {
        // 0.8 semitones sharp throughout: practice credit 0.7 per beat, gap or not.
        let sharp = samples { t in
            if (1.42..<1.48).contains(t) { return nil }
            return self.target(at: t).map { $0 + 0.8 }
        }
        let bridged = total(sharp, mode: .practice)
        let clean = total(samples { t in self.target(at: t).map { $0 + 0.8 } }, mode: .practice)
        #expect(bridged == clean)
        #expect(clean > 0 && clean < 10000)
        #expect(total(sharp, bridge: 0, mode: .practice) < bridged)
    }
}
