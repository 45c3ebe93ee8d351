import SongModel
import Testing
@testable import Scoring

@Suite struct SessionTests {
    let song = HandMadeSongs.solo

    func score(_ samples: [PitchSample], _ configuration: ScoringConfiguration = .init(micDelay: 0), song: Song? = nil, part: Int = 0) throws -> PerformanceResult {
        var session = try ScoringSession(song: song ?? self.song, partIndex: part, configuration: configuration)
        session.feed(contentsOf: samples)
        return session.finish()
    }

    @Test func perfectSingerScoresTheMaximum() throws {
        let result = try score(SampleSinger.following(song))
        #expect(result.total == 10000)
        #expect(result.lines.map(\.rating) == [.perfect, .perfect])
        #expect(result.basis == .notes)
    }

    @Test func silenceScoresZero() throws {
        let result = try score(SampleSinger.samples(until: 6) { _ in nil })
        #expect(result.total == 0)
        #expect(result.lines.allSatisfy { $0.rating == .bad })
    }

    @Test func anOctaveLowerScoresTheSame() throws {
        #expect(try score(SampleSinger.following(song, semitones: -12)).total == 10000)
        #expect(try score(SampleSinger.following(song, semitones: 24)).total == 10000)
    }

    @Test func threeSemitonesOffScoresNothingOnMedium() throws {
        #expect(try score(SampleSinger.following(song, semitones: 3)).total == 0)
        #expect(try score(SampleSinger.following(song, semitones: 3), .init(difficulty: .easy, micDelay: 0)).total == 0)
        #expect(try score(SampleSinger.following(song, semitones: 1.5), .init(difficulty: .easy, micDelay: 0)).total == 10000)
    }

    @Test func goldenNotesWeighDoubleAndFreestyleIsNotJudged() throws {
        // Sing only the golden note (beats 8..<12 of the first line, pitch E4).
        let clock = song.beatClock!
        let golden = SampleSinger.samples(until: 6) { t in
            t >= clock.seconds(atBeat: 8) && t < clock.seconds(atBeat: 12) ? 64 : nil
        }
        let result = try score(golden)
        #expect(abs(result.notesScore - 8 * 9000 / 28) < 1e-6)
        // Singing nonsense during the freestyle note changes nothing.
        let perfect = SampleSinger.following(song)
        let freestyleNoise = perfect.map { s -> PitchSample in
            var s = s
            if s.time >= clock.seconds(atBeat: 20) && s.time < clock.seconds(atBeat: 24) { s.midi = 71.3; s.levelDb = -20 }
            return s
        }
        #expect(try score(freestyleNoise).total == 10000)
        #expect(result.lines[1].notes[1].creditedBeats == 0)
    }

    @Test func micDelayShiftsTheAudioBeforeJudging() throws {
        let late = SampleSinger.following(song, late: 0.2)
        #expect(try score(late, .init(micDelay: 0.2)).total == 10000)
        #expect(try score(late, .init(micDelay: 0)).total < 8000)
    }

    @Test func micDelayInWallSecondsIsConvertedAtTempo() throws {
        // At tempo 1.5 a 0.2 s wall delay is 0.3 s of media.
        let late = SampleSinger.following(song, late: 0.3)
        #expect(try score(late, .init(tempo: 1.5, micDelay: 0.2)).total == 10000)
    }

    @Test func keyShiftMovesEveryTarget() throws {
        let shifted = SampleSinger.following(song, semitones: 2)
        #expect(try score(shifted, .init(keyShift: 2, micDelay: 0)).total == 10000)
        #expect(try score(SampleSinger.following(song), .init(keyShift: 2, micDelay: 0)).total == 0)
        #expect(try score(shifted).total == 0)
    }

    @Test func linesCloseOnlyAfterMicDelayPassesTheirEnd() throws {
        let delay = 0.14
        var session = try ScoringSession(song: song, configuration: .init(micDelay: delay))
        let samples = SampleSinger.following(song, late: delay)  // stamped when captured
        let lineOneEnd = song.beatClock!.seconds(atBeat: 12)
        var closedAt: [Double] = []
        var fed = 0
        for now in stride(from: 0.0, through: 6, by: 0.01) {
            while fed < samples.count, samples[fed].time <= now {
                session.feed(samples[fed])
                fed += 1
            }
            let closed = session.advance(to: now)
            if !closed.isEmpty { closedAt.append(now) }
            // The display has moved on at lineOneEnd, but the line stays open until its late notes are in.
            if now < lineOneEnd + delay - 1e-9 { #expect(session.nextLineIndex == 0) }
        }
        #expect(closedAt.count == 2)
        #expect(closedAt[0] >= lineOneEnd + delay - 1e-9)
        let result = session.finish()
        #expect(result.total == 10000)
    }

    @Test func practiceModeGivesPartialCreditAndCents() throws {
        let sharp = SampleSinger.following(song, semitones: 1)
        let result = try score(sharp, .init(mode: .practice, micDelay: 0))
        #expect(abs(result.notesScore - 4500) < 1e-6)
        let cents = result.lines.flatMap(\.notes).compactMap(\.deviationCents)
        #expect(cents.count == 5)
        #expect(cents.allSatisfy { abs($0 - 100) < 1e-6 })
        #expect(try score(SampleSinger.following(song, semitones: 0.4), .init(mode: .practice, micDelay: 0)).total == 10000)
        #expect(try score(SampleSinger.following(song, semitones: 1.6), .init(mode: .practice, micDelay: 0)).total == 0)
    }

    @Test func duetPartsAreJudgedSeparately() throws {
        let duet = HandMadeSongs.song(parts: [
            [[(.normal, 0, 8, 0)], [(.normal, 16, 8, 4)]],
            [[(.normal, 8, 8, 7)], [(.golden, 24, 8, 9)]],
        ])
        let singerTwo = SampleSinger.following(duet, part: 1)
        #expect(try score(singerTwo, song: duet, part: 1).total == 10000)
        #expect(try score(singerTwo, song: duet, part: 0).total == 0)
        #expect(try score(SampleSinger.following(duet, part: 0), song: duet, part: 0).total == 10000)
        #expect(throws: ReferenceError.noSuchPart(requested: 2, available: 2)) {
            try ScoringSession(song: duet, partIndex: 2, configuration: .init())
        }
    }

    @Test func lyricsOnlySongGetsAParticipationScore() throws {
        let lines = [LyricLine(start: 1, end: 3, syllables: [Syllable(text: "hello there", start: 1, end: 3)]),
                     LyricLine(start: 4, end: 5, syllables: [Syllable(text: "bye", start: 4, end: 5)])]
        let lrc = Song(metadata: .init(title: "L"), parts: [VoicePart(name: "Solo", lines: lines)], beatClock: nil,
                       source: SongSource(path: "l.lrc", format: .lrc))
        let voiced = SampleSinger.samples(until: 6) { t in (t >= 1 && t < 3) || (t >= 4 && t < 5) ? 57 : nil }
        let result = try score(voiced, song: lrc)
        #expect(result.basis == .participation)
        #expect(result.total == 10000)
        let firstLineOnly = SampleSinger.samples(until: 6) { t in t >= 1 && t < 3 ? 50 : nil }
        let partial = try score(firstLineOnly, song: lrc)
        #expect(partial.total > 5000 && partial.total < 10000)
        #expect(try score(SampleSinger.samples(until: 6) { _ in nil }, song: lrc).total == 0)
    }
}

@Suite struct MediaClockTests {
    @Test func wallTimeMapsThroughTempoFromTheReferencePoint() {
        let clock = MediaClock(referenceWall: 100, referenceMedia: 30, tempo: 1.5)
        #expect(clock.mediaTime(atWall: 100) == 30)
        #expect(clock.mediaTime(atWall: 102) == 33)
        #expect(MediaClock.recording(tempo: 0.8).mediaTime(atWall: 10) == 8)
    }
}
