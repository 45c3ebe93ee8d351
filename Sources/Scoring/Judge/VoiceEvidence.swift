/// Whether the detector heard a voice near an unpitched beat (rap, participation slot).
///
/// Those beats ask for sound, not pitch, but sound alone is not a singer: at a party the
/// speakers are as loud at the microphone as the singer, and a silent singer used to get full
/// credit on rap notes and lyrics-only songs. The detector's voicing decision, at any pitch,
/// is made knowing the backing (bleed suppression), so a beat's sound counts only when a voiced
/// sample lies within `reach` of it: the vowels of the words, and the consonants beside them.
enum VoiceEvidence {
    /// How far from a voiced sample a beat's sound still counts (a consonant next to its vowel).
    static let reach = 0.1

    /// `samples` in time order. Nothing after `lineEnd` is asked: the live room closes a line as
    /// soon as its audio up to there is analysed, and must judge it as `karaoke score` does.
    static func heard(
        in samples: [PitchSample], around window: Range<Double>, lineEnd: Double, voicingGateDb: Double
    ) -> Bool {
        let to = min(window.upperBound + reach, lineEnd)
        var i = ScoringSession.firstIndex(in: samples[...], notBefore: window.lowerBound - reach)
        while i < samples.count, samples[i].time < to {
            if samples[i].midi != nil, samples[i].levelDb >= voicingGateDb { return true }
            i += 1
        }
        return false
    }
}
