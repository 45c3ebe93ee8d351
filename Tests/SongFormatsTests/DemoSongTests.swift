import Foundation
import Testing
import SongFormats
import SongModel

/// The shipped demo song reads, has what the brief promises, and fits its backing track.
@Suite struct DemoSongTests {
    let library = SongLibrary(directory: TestPaths.songs.path)

    @Test func demoIsPlayableWithNotesInsideTheBackingTrack() throws {
        let entry = try #require(library.entry(id: "demo"))
        #expect(entry.error == nil)
        let song = try #require(entry.song)
        #expect(entry.isPlayable)
        #expect(entry.vocalsPath?.hasSuffix("demo/vocals.ogg") == true)
        #expect(entry.coverPath?.hasSuffix("demo/cover.png") == true)
        let duration = try #require(entry.duration)
        #expect(duration > 60 && duration < 95)
        let vocals = try #require(entry.vocalsPath.flatMap(AudioDurationProbe.seconds))
        #expect(abs(vocals - duration) < 0.5)
        let notes = song.parts[0].notes
        let clock = try #require(song.beatClock)
        #expect(notes.count > 80)
        #expect(notes.contains { $0.kind == .golden })
        #expect(notes.contains { $0.kind == .freestyle })
        #expect(notes.contains { $0.kind == .rap })
        for note in notes {
            #expect(clock.seconds(atBeat: note.startBeat) >= 0)
            #expect(clock.seconds(atBeat: note.endBeat) <= duration)
        }
        // A comfortable range: around C4…C5.
        let pitched = notes.filter(\.kind.isPitched).map(\.midi)
        #expect(pitched.min()! >= 57 && pitched.max()! <= 74)
        // Notes sit on the backing track's eighth-note grid (96 BPM, sixteenth-note beats).
        #expect(notes.allSatisfy { $0.startBeat % 2 == 0 })
    }

    @Test func duetHasTwoNamedParts() throws {
        let entry = try #require(library.entry(id: "demo-duet"))
        #expect(entry.isPlayable)
        let song = try #require(entry.song)
        #expect(song.parts.map(\.name) == ["Morning Voice", "Evening Voice"])
        #expect(entry.backingTrackPath?.hasSuffix("demo/backing.ogg") == true)
    }

    @Test func lrcHasTheSameLyricsAndTiming() throws {
        let txt = try SongFileReader.read(path: TestPaths.songs.appendingPathComponent("demo/demo.txt").path)
        let lrc = try SongFileReader.read(path: TestPaths.songs.appendingPathComponent("demo/demo.lrc").path)
        #expect(lrc.source.format == .lrc)
        let a = txt.parts[0].lines, b = lrc.parts[0].lines
        #expect(a.count == b.count)
        for (x, y) in zip(a, b) {
            #expect(x.text.split(separator: " ") == y.text.split(separator: " "))
            #expect(abs(x.start - y.start) < 0.006)
            #expect(y.syllables.count == x.text.split(separator: " ").count)
        }
    }

    @Test func audioProbeReadsOggHeaders() throws {
        let seconds = try #require(AudioDurationProbe.seconds(path: TestPaths.songs.appendingPathComponent("demo/backing.ogg").path))
        #expect(abs(seconds - 91) < 0.1)
        #expect(AudioDurationProbe.seconds(path: TestPaths.songs.appendingPathComponent("demo/demo.txt").path) == nil)
    }
}
