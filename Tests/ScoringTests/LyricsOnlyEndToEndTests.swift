import AudioFiles
import Foundation
import KaraokeRoom
import Scoring
import SongFormats
import SongModel
import Testing

/// Lyrics-only songs: notes derived from the guide track, or a participation score without one.
@Suite(.serialized) struct LyricsOnlyEndToEndTests {
    let scorer = OfflineScorer(pitchSource: DetectorPitchSource())
    let scratch = NSTemporaryDirectory() + "lyrics-only-\(UUID().uuidString)"

    /// The demo melody (from demo.txt) sung by a synthesised singer, as a WAV.
    func demoSinger(_ singer: SynthesisedSinger) throws -> String {
        try singer.write(try SongFileReader.read(path: TestPaths.demoSong), name: "demo-melody")
    }

    @Test func guideTrackNotesAreDerivedScoredAndSaved() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let lyrics = try SongFileReader.read(path: TestPaths.demoLyrics)
        #expect(!lyrics.hasNotes)
        #expect(GuideTrackNotes.vocalsPath(of: lyrics) != nil, "the demo folder has a vocal guide track")
        let derivedPath = scratch + "/demo.derived.txt"
        let options = OfflineScoringOptions(configuration: .init(difficulty: .medium, micDelay: 0), derivedNotesPath: derivedPath)

        let perfect = try scorer.score(song: lyrics, recordingPath: try demoSinger(SynthesisedSinger()), options: options)
        #expect(perfect.result.basis == .derivedNotes)
        #expect(perfect.derivedNotesPath == derivedPath)
        // The guide holds notes through the melody's short rests, so the melody singer loses a little.
        #expect(perfect.result.total >= 8000, "singing the demo melody against notes derived from its guide: \(perfect.result.total)")

        // The guide itself, sung back, matches the notes derived from it.
        let guide = try #require(GuideTrackNotes.vocalsPath(of: lyrics))
        let itself = try scorer.score(song: lyrics, recordingPath: guide, options: options)
        #expect(itself.result.total >= 9500, "guide against its own derived notes: \(itself.result.total)")

        let off = try scorer.score(song: lyrics, recordingPath: try demoSinger(SynthesisedSinger(transpose: 3)), options: options)
        #expect(off.result.total <= 2000)

        // The saved file is an UltraStar song with the derived notes and the lyrics.
        let saved = try SongFileReader.read(path: derivedPath)
        #expect(saved.hasNotes)
        #expect(saved.parts[0].notes.count == perfect.song.parts[0].notes.count)
        #expect(saved.parts[0].lines[0].syllables.first?.text.hasPrefix("Morning") == true, "words follow the LRC word timing")
        #expect(saved.parts[0].lines.map(\.text).joined().contains("hill,"))
    }

    @Test func withoutAGuideTrackTheScoreIsParticipationOnlyAndSaysSo() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let lonely = scratch + "/demo.lrc"
        try FileManager.default.copyItem(atPath: TestPaths.demoLyrics, toPath: lonely)
        let lyrics = try SongFileReader.read(path: lonely)
        let options = OfflineScoringOptions(configuration: .init(micDelay: 0))
        let sung = try scorer.score(song: lyrics, recordingPath: try demoSinger(SynthesisedSinger()), options: options)
        #expect(sung.result.basis == .participation)
        #expect(sung.warnings.contains { $0.contains("timing-only") })
        #expect(sung.derivedNotesPath == nil)
        #expect(sung.result.total >= 5000, "voiced during the lines: \(sung.result.total)")
        // Participation ignores pitch: a singer 3 semitones off participates just as much.
        let off = try scorer.score(song: lyrics, recordingPath: try demoSinger(SynthesisedSinger(transpose: 3)), options: options)
        #expect(abs(off.result.total - sung.result.total) <= 200)
        let silent = try scorer.score(song: lyrics, recordingPath: try demoSinger(SynthesisedSinger(silent: true)), options: options)
        #expect(silent.result.total == 0)
    }
}

/// Duets: each part judged for its own singer.
@Suite struct DuetEndToEndTests {
    @Test func eachPartIsJudgedAgainstItsOwnNotes() throws {
        let path = TestPaths.packageRoot + "/songs/demo-duet/demo-duet.txt"
        let song = try SongFileReader.read(path: path)
        try #require(song.parts.count == 2)
        let scorer = OfflineScorer(pitchSource: DetectorPitchSource())
        let configuration = ScoringConfiguration(micDelay: 0)
        let singerTwo = try SynthesisedSinger().write(song, part: 1, name: "duet-p2")
        let asPartTwo = try scorer.score(song: song, recordingPath: singerTwo, options: .init(part: 1, configuration: configuration))
        let asPartOne = try scorer.score(song: song, recordingPath: singerTwo, options: .init(part: 0, configuration: configuration))
        #expect(asPartTwo.result.total >= 9500)
        #expect(asPartOne.result.total < 9000)
        // Part 1's lines that part 2 never sings earn the second singer nothing.
        let partTwoNotes = SynthesisedSinger.notes(of: song, part: 1)
        let soloLines = asPartOne.result.lines.filter { line in
            line.isJudged && !partTwoNotes.contains { $0.start < line.end && $0.end > line.start }
        }
        #expect(!soloLines.isEmpty)
        #expect(soloLines.allSatisfy { $0.score == 0 && $0.rating == .bad })
    }
}
