import Testing
import SongModel

@Suite struct SongModelTests {
    @Test func beatClockFollowsUltraStarFormula() {
        let clock = BeatClock(bpm: 300, gapSeconds: 1.5)
        // t = GAP + beat · 60 / (BPM · 4)
        #expect(abs(clock.seconds(atBeat: 100) - (1.5 + 100 * 60 / 1200)) < 1e-12)
        #expect(abs(clock.beat(atSeconds: clock.seconds(atBeat: 37)) - 37) < 1e-9)
    }

    @Test func musicalPitchRoundTrips() {
        #expect(abs(MusicalPitch.hz(fromMidi: 69) - 440) < 1e-9)
        #expect(abs(MusicalPitch.midi(fromHz: 261.6255653) - 60) < 1e-6)
        #expect(MusicalPitch.name(ofMidi: 60) == "C4")
        #expect(MusicalPitch.name(ofMidi: 70) == "A#4")
        #expect(MusicalPitch.name(ofMidi: 23) == "B0")
    }

    @Test func noteKindSymbolsRoundTrip() {
        for kind in NoteKind.allCases { #expect(NoteKind(symbol: kind.symbol) == kind) }
        #expect(NoteKind(symbol: "X") == nil)
        #expect(Note(kind: .normal, startBeat: 0, lengthBeats: 4, pitch: 0).midi == 60)
    }

    @Test func errorNamesFileAndLine() {
        let e = SongFileError(path: "songs/a.txt", line: 12, message: "note length must be positive")
        #expect(e.description == "songs/a.txt:12: note length must be positive")
    }
}
