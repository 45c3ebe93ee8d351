import Foundation
import SongModel
import Testing
import TestSupport

/// A MIDI karaoke file's melody track gives real notes: `karaoke score` on a `.kar` written by
/// the test, sung by the synthesised singer from the melody the test wrote (not from what the
/// reader made of it).
@Suite(.serialized, .enabled(if: KaraokeCommand.isAvailable))
struct MIDIScoreCommandTests {
    let scratch = NSTemporaryDirectory() + "midi-score-\(UUID().uuidString)"

    /// The tune as the singer knows it: note times from the fixture's own tempo arithmetic.
    func sungSong(_ fixture: MIDIFixture) -> Song {
        let syllables = fixture.melody.map { sung in
            Syllable(text: sung.lyric, start: fixture.seconds(atQuarter: sung.quarter),
                     end: fixture.seconds(atQuarter: sung.quarter + sung.length),
                     note: Note(kind: .normal, startBeat: 0, lengthBeats: 1, pitch: sung.key - 60))
        }
        let line = LyricLine(start: syllables[0].start, end: syllables.last!.end, syllables: syllables)
        return Song(metadata: SongMetadata(title: "sung"), parts: [VoicePart(name: "Solo", lines: [line])],
                    beatClock: nil, source: SongSource(path: "sung", format: .midi))
    }

    func score(_ kar: String, _ wav: String) throws -> Int {
        let run = try KaraokeCommand.run(["score", kar, wav, "--difficulty", "medium", "--no-backing", "--mic-delay", "0", "--json"],
                                         in: scratch)
        #expect(run.status == 0, "\(run.err)")
        let json = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        #expect(json?["basis"] as? String == "notes")
        return json?["total"] as? Int ?? -1
    }

    @Test func midiMelodyScoresASingerOnPitchHighAndOffPitchLow() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let fixture = MIDIFixture.tune()
        let kar = scratch + "/tune.kar"
        try Data(fixture.bytes()).write(to: URL(fileURLWithPath: kar))

        let onPitch = try SynthesisedSinger().write(sungSong(fixture), name: "midi-on-pitch", in: scratch)
        let good = try score(kar, onPitch)
        #expect(good >= 9000, "on pitch: \(good)")

        var off = SynthesisedSinger()
        off.transpose = 3
        let offPitch = try off.write(sungSong(fixture), name: "midi-3-off", in: scratch)
        let bad = try score(kar, offPitch)
        #expect(bad <= 1500, "3 semitones off: \(bad)")
        print("MIDI melody scores (medium): on pitch \(good), 3 semitones off \(bad)")
    }
}
