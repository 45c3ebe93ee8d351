/// Forgives short unvoiced gaps (consonants, stop closures) inside singing that is on pitch
/// on both sides ("coyote time", as UltraStar Play discusses in its issue #113).
///
/// On fast songs a beat lasts 40–50 ms, so an "s" or the closure of a "t" fills whole beats
/// and a singer who sang every note right loses "Perfect". A run of unvoiced samples is
/// filled in with the neighbouring sung pitch when:
/// - the voiced samples on each side are at most `maxGap` seconds apart,
/// - the last `flankSamples` before and the first `flankSamples` after are voiced and on pitch
///   for the note sounding at their own time (a hit in UltraStar mode, any credit in practice mode),
/// - the filled sample lies in a pitched note that one of the two flanks belongs to.
/// Silence earns nothing (no flanks), nor does talking off pitch (flanks miss); only beats
/// already framed by hits can be completed.
struct GapBridge {
    let configuration: ScoringConfiguration
    /// Consecutive on-pitch samples needed on each side of the gap.
    static let flankSamples = 2

    /// Returns `samples` with bridged gaps filled in; `notes` are the line's notes in time order.
    func bridge(_ samples: ArraySlice<PitchSample>, notes: [ReferenceNote]) -> [PitchSample] {
        var out = Array(samples)
        let maxGap = configuration.rules.unvoicedBridgeSeconds
        guard maxGap > 0, out.count > 2 * Self.flankSamples, !notes.isEmpty else { return out }
        let gate = configuration.rules.voicingGateDb
        let noteIndex = out.map { Self.pitchedNote(at: $0.time, in: notes) }
        let onPitch: [Bool] = out.indices.map { i in
            guard let n = noteIndex[i], let midi = out[i].midi, out[i].levelDb >= gate,
                  let target = notes[n].targetMidi else { return false }
            let deviation = ScoringRules.foldedDeviation(sung: midi, target: target)
            switch configuration.mode {
            case .ultraStar: return configuration.isHit(deviation: deviation)
            case .practice: return ScoringRules.practiceCredit(deviation: deviation) > 0
            }
        }
        func voiced(_ s: PitchSample) -> Bool { s.midi != nil && s.levelDb >= gate }
        var i = 0
        while i < out.count {
            guard !voiced(out[i]) else { i += 1; continue }
            var j = i
            while j < out.count && !voiced(out[j]) { j += 1 }
            // Unvoiced run i..<j.
            let k = Self.flankSamples
            if i >= k, j + k <= out.count,
               out[j].time - out[i - 1].time <= maxGap + 1e-9,
               (i - k..<i).allSatisfy({ onPitch[$0] }), (j..<j + k).allSatisfy({ onPitch[$0] }) {
                let left = out[i - 1], right = out[j]
                for m in i..<j {
                    guard let n = noteIndex[m] else { continue }
                    let source = noteIndex[i - 1] == n ? left : noteIndex[j] == n ? right : nil
                    guard let source else { continue }
                    out[m].midi = source.midi
                    out[m].levelDb = max(out[m].levelDb, gate)
                }
            }
            i = j
        }
        return out
    }

    /// Index of the pitched note sounding at `time`, if any.
    private static func pitchedNote(at time: Double, in notes: [ReferenceNote]) -> Int? {
        for (n, note) in notes.enumerated() where note.start <= time && time < note.end {
            return note.targetMidi != nil && note.kind.isPitched && note.weight > 0 ? n : nil
        }
        return nil
    }
}
