import Foundation
import Testing
@testable import Scoring

/// Issue 11: tolerances round to whole semitones first (as UltraStar Deluxe), exact cents on request.
@Suite struct ToleranceRuleTests {
    let note = ReferenceNote(kind: .normal, text: "la", targetMidi: 60, start: 0, beatDuration: 0.1, beatCount: 1)

    func credit(_ sung: Double, _ difficulty: Difficulty, _ rule: PitchToleranceRule = .wholeSemitones) -> Double {
        let samples = (0..<5).map { PitchSample(time: Double($0) * 0.02, midi: sung, levelDb: -20) }
        let configuration = ScoringConfiguration(difficulty: difficulty, toleranceRule: rule)
        return BeatJudge(configuration: configuration).judge(samples[...], note: note).credit
    }

    @Test func wholeSemitonesIsTheDefault() {
        #expect(ScoringConfiguration().toleranceRule == .wholeSemitones)
    }

    @Test func mediumAcceptsUpToOneAndAHalfSemitones() {
        #expect(credit(61.4, .medium) == 1)
        #expect(credit(58.6, .medium) == 1)
        #expect(credit(61.6, .medium) == 0)
        #expect(credit(58.4, .medium) == 0)
        // Steadily one semitone sharp with detector jitter: always a hit, never a coin toss.
        for cents in stride(from: 90.0, through: 110.0, by: 5) { #expect(credit(60 + cents / 100, .medium) == 1) }
    }

    @Test func hardAcceptsUpToHalfASemitone() {
        #expect(credit(60.4, .hard) == 1)
        #expect(credit(59.6, .hard) == 1)
        #expect(credit(60.6, .hard) == 0)
        #expect(credit(59.4, .hard) == 0)
        #expect(credit(61, .hard) == 0, "a semitone sharp is wrong on hard")
    }

    @Test func easyAcceptsUpToTwoAndAHalfSemitones() {
        #expect(credit(62.4, .easy) == 1)
        #expect(credit(57.6, .easy) == 1)
        #expect(credit(62.6, .easy) == 0)
        #expect(credit(72 + 2.4, .easy) == 1, "folded first, then rounded")
    }

    @Test func exactCentsKeepsTheOldWindows() {
        #expect(credit(61.0, .medium, .exactCents) == 1)
        #expect(credit(61.05, .medium, .exactCents) == 0)
        #expect(credit(61.4, .medium, .exactCents) == 0)
        #expect(credit(60.5, .hard, .exactCents) == 1)
        #expect(credit(60.55, .hard, .exactCents) == 0)
        #expect(credit(62.0, .easy, .exactCents) == 1)
        #expect(credit(62.4, .easy, .exactCents) == 0)
    }

    @Test func aSteadilySharpSingerScoresOnMediumNotOnHard() throws {
        let line = ReferenceLine(index: 0, text: "la la", start: 0, end: 2, notes: [
            ReferenceNote(kind: .normal, text: "la", targetMidi: 60, start: 0, beatDuration: 0.1, beatCount: 10),
            ReferenceNote(kind: .normal, text: "la", targetMidi: 64, start: 1, beatDuration: 0.1, beatCount: 10),
        ])
        let reference = ReferencePart(name: "P1", basis: .notes, lines: [line])
        func total(_ difficulty: Difficulty, _ rule: PitchToleranceRule) -> Int {
            var session = ScoringSession(reference: reference, configuration: .init(difficulty: difficulty, micDelay: 0, toleranceRule: rule))
            // +1 semitone ± 5 cents of jitter.
            session.feed(contentsOf: (0..<200).map { i in
                let t = Double(i) * 0.01
                return PitchSample(time: t, midi: (t < 1 ? 61 : 65) + 0.05 * sin(Double(i)), levelDb: -20)
            })
            return session.finish().total
        }
        #expect(total(.medium, .wholeSemitones) == 10000)
        #expect(total(.hard, .wholeSemitones) == 0)
        #expect(total(.medium, .exactCents) < 9000, "exact cents: about half the beats by chance")
    }

    @Test func configurationsSavedBeforeTheRuleDecodeAsExactCents() throws {
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ScoringConfiguration())) as! [String: Any]
        #expect(json["toleranceRule"] as? String == "semitones")
        json.removeValue(forKey: "toleranceRule")
        var rules = json["rules"] as! [String: Any]
        rules.removeValue(forKey: "unvoicedBridgeSeconds")
        rules.removeValue(forKey: "soundGateDb")
        rules["voicingGateDb"] = -50
        json["rules"] = rules
        let old = try JSONDecoder().decode(ScoringConfiguration.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(old.toleranceRule == .exactCents)
        #expect(old.rules.unvoicedBridgeSeconds == 0)
        #expect(old.rules.voicingGateDb == -50 && old.rules.soundGateDb == -50, "one gate for both, as it was")
        let current = try JSONDecoder().decode(ScoringConfiguration.self, from: JSONEncoder().encode(ScoringConfiguration()))
        #expect(current == ScoringConfiguration())
    }
}
