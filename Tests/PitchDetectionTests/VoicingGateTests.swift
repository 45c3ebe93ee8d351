import Testing
@testable import PitchDetection

@Suite struct VoicingGateTests {
    @Test func aRunContinuingUnderSuppressedBleedHoldsOnLessClarity() {
        // The detector passes the bleed hold threshold (0.30) only for a frame continuing a voiced
        // run at the same period with a backing suppressed; otherwise the gate's own 0.40 applies.
        let configuration = PitchDetectorConfiguration()
        let hold = configuration.bleed.holdClarity
        var plain = VoicingGate(configuration: configuration)
        var underBleed = VoicingGate(configuration: configuration)
        let started = (plain.decide(clarity: 0.9, levelDb: -20, centreShare: 1),
                       underBleed.decide(clarity: 0.9, levelDb: -20, centreShare: 1))
        #expect(started == (true, true))
        let plainHeld = plain.decide(clarity: 0.35, levelDb: -20, centreShare: 1)
        let bleedHeld = underBleed.decide(clarity: 0.35, levelDb: -20, centreShare: 1, holdClarity: hold)
        #expect(!plainHeld)
        #expect(bleedHeld)
        // It only holds a run: after an unvoiced frame the onset clarity (0.50) is needed again.
        let dropped = underBleed.decide(clarity: 0.2, levelDb: -20, centreShare: 1, holdClarity: hold)
        let restarted = underBleed.decide(clarity: 0.45, levelDb: -20, centreShare: 1, holdClarity: hold)
        #expect(!dropped)
        #expect(!restarted)
    }
}
