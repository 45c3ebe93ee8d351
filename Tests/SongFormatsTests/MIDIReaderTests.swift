import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

/// MIDI and `.kar` files written by `MIDIFixture`: lyrics with their timing through a tempo
/// change, the melody found among chords and drums, and damaged files.
@Suite struct MIDIReaderTests {
    func read(_ fixture: MIDIFixture, name: String = "tune.kar", mode: SongReadingMode = .lenient) throws -> Song {
        try SongFileReader.read(bytes: fixture.bytes(), path: name, mode: mode)
    }

    @Test(arguments: [MIDIFixture.LyricStyle.karTextEvents, .lyricMetaEvents])
    func lyricsAndMelodyWithTheirTiming(style: MIDIFixture.LyricStyle) throws {
        var fixture = MIDIFixture.tune()
        fixture.style = style
        let song = try read(fixture, name: style == .karTextEvents ? "tune.kar" : "tune.mid")
        #expect(song.source.format == .midi)
        #expect(song.warnings.isEmpty, "\(song.warnings)")
        if style == .karTextEvents {
            #expect(song.metadata.title == "Fixture Song")
            #expect(song.metadata.artist == "The Tests")
            #expect(song.metadata.language == "ENGL")
        }
        let lines = song.parts[0].lines
        #expect(lines.map(\.text) == ["Sing a song of morning light across the hill and over sea",
                                      "Hear the bells of ever bright and carry me to home again"])
        // Every melody note is a syllable with its note; syllable times follow the tempo map.
        let syllables = lines.flatMap(\.syllables)
        #expect(syllables.count == fixture.melody.count)
        for (syllable, sung) in zip(syllables, fixture.melody) {
            #expect(abs(syllable.start - fixture.seconds(atQuarter: sung.quarter)) < 0.001, "\(sung.lyric)")
            #expect(abs(syllable.end - fixture.seconds(atQuarter: sung.quarter + sung.length)) < 0.001, "\(sung.lyric)")
            #expect(syllable.note?.midi == sung.key)
        }
        // The beat grid is a sixteenth of the first tempo (100 BPM): notes after the change to
        // 120 BPM land within half a grid step of their true time.
        let clock = try #require(song.beatClock)
        #expect(clock.bpm == 100)
        for (syllable, sung) in zip(syllables, fixture.melody) {
            let noteStart = clock.seconds(atBeat: syllable.note!.startBeat)
            #expect(abs(noteStart - fixture.seconds(atQuarter: sung.quarter)) <= clock.secondsPerBeat / 2 + 1e-9)
        }
    }

    @Test func withoutAMelodyTheLyricsStillRead() throws {
        var fixture = MIDIFixture.tune()
        fixture.melody = fixture.melody.map { var s = $0; s.key = 0; return s }  // melody track of key 0 …
        var bytes = fixture.bytes()
        // … then drop the melody track's notes by turning them into aftertouch (0xA0) events.
        var i = 0
        while i + 2 < bytes.count {
            if (bytes[i] == 0x90 || bytes[i] == 0x80), bytes[i + 1] == 0 { bytes[i] = 0xA0 }
            i += 1
        }
        let song = try SongFileReader.read(bytes: bytes, path: "tune.kar")
        #expect(!song.hasNotes)
        #expect(song.beatClock == nil)
        #expect(song.parts[0].lines.count == 2)
        #expect(song.warnings.contains { $0.message.contains("no melody track matches the lyrics") })
        #expect(throws: SongFileError.self) { _ = try SongFileReader.read(bytes: bytes, path: "tune.kar", mode: .strict) }
    }

    @Test func damagedFilesKeepWhatWasRead() throws {
        let bytes = MIDIFixture.tune().bytes()
        let cut = Array(bytes.prefix(bytes.count - 200))
        let song = try SongFileReader.read(bytes: cut, path: "cut.kar")
        #expect(song.warnings.first?.message.contains("damaged MIDI file") == true)
        #expect(!song.parts[0].lines.isEmpty)
        let strict = readError(bytes: cut, name: "cut.kar", mode: .strict)
        #expect(strict?.message.contains("damaged MIDI file") == true)
    }

    @Test func notMIDIOrNoLyricsIsAnError() {
        #expect(readError("hello", name: "x.mid")?.message.contains("not a Standard MIDI File") == true)
        var fixture = MIDIFixture.tune()
        fixture.melody = fixture.melody.map { var s = $0; s.lyric = ""; return s }
        #expect(readError(bytes: fixture.bytes(), name: "x.mid")?.message.contains("no lyrics") == true)
        // Two text events ("Sequenced by …" comments) are not the words of a song.
        fixture = MIDIFixture.tune()
        fixture.melody = fixture.melody.enumerated().map { var s = $1; s.lyric = $0 < 2 ? "comment \($0)" : ""; return s }
        #expect(readError(bytes: fixture.bytes(), name: "x.mid")?.message.contains("no lyrics") == true)
        // Truncated headers and random bytes after a valid header never crash.
        for n in [4, 8, 13, 14, 22, 30] {
            _ = readError(bytes: Array(MIDIFixture.tune().bytes().prefix(n)), name: "x.mid")
        }
    }
}
