import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

@Suite struct UltraStarWriterTests {
    /// Every UltraStar corpus file that reads as written (strictly), written and read again,
    /// gives the same notes and times. (Files read by assuming something — a note at a negative
    /// beat — are written as valid files, so their beats may move.)
    @Test(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absentReason)))
    func corpusRoundTrips() throws {
        var checked = 0
        for path in TestPaths.corpusFiles() where path.contains("/ultrastar/") {
            guard var song = try? SongFileReader.read(path: path, mode: .strict) else { continue }
            if song.metadata.audioFile == nil { song.metadata.audioFile = "audio.ogg" }
            let text = UltraStarWriter.text(for: song)
            let again = try SongFileReader.read(bytes: Array(text.utf8), path: "again.txt", mode: .strict)
            try expectSameTiming(song, again, name: path)
            #expect(again.metadata.title == song.metadata.title)
            checked += 1
        }
        #expect(checked > 50)
    }

    @Test func demoRoundTripsExactly() throws {
        for path in ["demo/demo.txt", "demo-duet/demo-duet.txt"] {
            let song = try SongFileReader.read(path: TestPaths.songs.appendingPathComponent(path).path)
            let again = try SongFileReader.read(bytes: Array(UltraStarWriter.text(for: song).utf8), path: "x.txt")
            #expect(again.parts == song.parts)
            #expect(again.beatClock == song.beatClock)
            #expect(again.metadata.vocalsFile == song.metadata.vocalsFile)
        }
    }

    @Test func lyricsWithoutNotesBecomeFreestyleOnAFineGrid() throws {
        var song = try readFixture("[00:01.00]<00:01.00> one <00:01.50> two\n[00:03.00]three\n", name: "a.lrc")
        song.metadata.audioFile = "backing.ogg"
        song.metadata.title = "T"
        let again = try SongFileReader.read(bytes: Array(UltraStarWriter.text(for: song).utf8), path: "x.txt")
        #expect(again.beatClock == UltraStarWriter.defaultClock)
        #expect(again.parts[0].notes.allSatisfy { $0.kind == .freestyle })
        #expect(again.parts[0].lines.map(\.text) == song.parts[0].lines.map(\.text))
        for (a, b) in zip(again.parts[0].lines, song.parts[0].lines) {
            #expect(abs(a.start - b.start) <= 0.0125)
        }
    }

    @Test func writerFormatsNumbers() {
        let song = Song(metadata: SongMetadata(title: "T", artist: "A", audioFile: "a.ogg"),
                        parts: [VoicePart(name: "Solo", lines: [LyricLine(start: 1, end: 2, syllables: [
                            Syllable(text: " x\ny", start: 1, end: 2, note: Note(kind: .golden, startBeat: 0, lengthBeats: 4, pitch: -3)),
                        ])])],
                        beatClock: BeatClock(bpm: 315.08, gapSeconds: 2.72), source: SongSource(path: "p", format: .ultraStar))
        let text = UltraStarWriter.text(for: song)
        #expect(text.contains("#BPM:315.08\n"))
        #expect(text.contains("#GAP:2720\n"))
        #expect(text.contains("* 0 4 -3  x y\n"))
        #expect(text.hasSuffix("E\n"))
    }

    private func expectSameTiming(_ a: Song, _ b: Song, name: String) throws {
        #expect(a.parts.count == b.parts.count, "\(name)")
        for (pa, pb) in zip(a.parts, b.parts) {
            #expect(pa.notes == pb.notes, "\(name)")
            #expect(pa.lines.count == pb.lines.count, "\(name)")
            for (la, lb) in zip(pa.lines, pb.lines) {
                #expect(abs(la.start - lb.start) < 1e-6, "\(name)")
                #expect(la.text == lb.text.replacingOccurrences(of: "\n", with: " ") || la.text.contains("\n"), "\(name)")
            }
        }
    }
}
