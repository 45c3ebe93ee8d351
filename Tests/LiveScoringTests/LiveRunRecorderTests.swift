import Foundation
@testable import LiveScoring
import ScoreStore
import Scoring
import Testing

/// What the live session stores for one singer's run.
@Suite struct LiveRunRecorderTests {
    static func line(_ index: Int, sung: Bool) -> LineResult {
        let note = NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4,
                              creditedBeats: sung ? 3 : 0, deviationCents: sung ? 20 : nil)
        return LineResult(lineIndex: index, text: "la la", start: Double(index), end: Double(index) + 0.8,
                          score: sung ? 300 : 0, maxScore: 400, bonus: 0, perfection: sung ? 0.75 : 0,
                          rating: LineRating(perfection: sung ? 0.75 : 0), notes: [note])
    }

    func makeRecorder(singer: String, claimed: Bool = false) throws -> (LiveRunRecorder, SQLiteScoreStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteScoreStore(path: folder.appendingPathComponent("karaoke.sqlite").path)
        let start = PerformanceStart(songId: "song", songTitle: "Song", singer: singer, part: 0,
                                     configuration: ScoringConfiguration(), basis: .notes)
        return (LiveRunRecorder(store: store, start: start, claimed: claimed), store, folder)
    }

    /// Issue 40: a singer who took a seat and stayed silent left no row at all.
    @Test func aClaimedSeatWhoseSingerStayedSilentIsStoredAtZero() async throws {
        let (recorder, store, folder) = try makeRecorder(singer: "Quiet Ann", claimed: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for i in 0..<3 { recorder.record(Self.line(i, sung: false)) }
        recorder.finish(total: 0)
        #expect(await recorder.flush())
        let row = try #require(try store.history(singer: "Quiet Ann").first)
        #expect(row.total == 0)
        #expect(row.status == .complete)
        #expect(row.finishedAt != nil)
        #expect(try store.lines(of: row.id ?? -1).map(\.lineIndex) == [0, 1, 2])
        #expect(try store.leaderboard(songId: "song").map(\.singer) == ["Quiet Ann"])
    }

    @Test func aClaimedSilentRunWithoutItsMicrophoneIsStoredInterrupted() async throws {
        let (recorder, store, folder) = try makeRecorder(singer: "Quiet Bo", claimed: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        recorder.record(Self.line(0, sung: false))
        recorder.record(Self.line(1, sung: false), micLost: true)
        recorder.finish(total: 0)
        #expect(await recorder.flush())
        let row = try #require(try store.history(singer: "Quiet Bo").first)
        #expect(row.total == 0)
        #expect(row.status == .interrupted)
    }

    @Test func aMicrophoneNobodySangIntoLeavesNoPerformance() async throws {
        let (recorder, store, folder) = try makeRecorder(singer: "Nobody")
        defer { try? FileManager.default.removeItem(at: folder) }
        for i in 0..<3 { recorder.record(Self.line(i, sung: false)) }
        recorder.finish(total: 0)
        #expect(await recorder.flush())
        #expect(try store.history(singer: "Nobody").isEmpty)
    }

    @Test func silentLinesBeforeTheFirstSungOneAreStoredWithIt() async throws {
        let (recorder, store, folder) = try makeRecorder(singer: "Late Starter")
        defer { try? FileManager.default.removeItem(at: folder) }
        recorder.record(Self.line(0, sung: false))
        recorder.record(Self.line(1, sung: false))
        #expect(await recorder.flush())
        #expect(try store.history(singer: "Late Starter").isEmpty, "nothing stored while nobody has sung")
        recorder.record(Self.line(2, sung: true))
        recorder.record(Self.line(3, sung: false))
        recorder.finish(total: 300)
        #expect(await recorder.flush())
        let rows = try store.history(singer: "Late Starter")
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row.finishedAt != nil)
        #expect(row.total == 300)
        #expect(try store.lines(of: row.id ?? -1).map(\.lineIndex) == [0, 1, 2, 3])
    }
}

/// Issue 12: a microphone lost mid-song scored its lines 0 and the run went on the leaderboard.
@Suite struct LiveRunRecorderMicLossTests {
    @Test func linesSungWithoutTheMicrophoneAreMarkedAndTheRunIsNotComplete() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteScoreStore(path: folder.appendingPathComponent("karaoke.sqlite").path)
        let start = PerformanceStart(songId: "song", songTitle: "Song", singer: "Cut Off", part: 0,
                                     configuration: ScoringConfiguration(), basis: .notes)
        let recorder = LiveRunRecorder(store: store, start: start)
        recorder.record(LiveRunRecorderTests.line(0, sung: true))
        recorder.record(LiveRunRecorderTests.line(1, sung: false), micLost: true)
        recorder.record(LiveRunRecorderTests.line(2, sung: true))
        recorder.finish(total: 600)
        #expect(await recorder.flush())
        let row = try #require(try store.history(singer: "Cut Off").first)
        #expect(row.status == .interrupted)
        #expect(try store.lines(of: row.id ?? -1).map(\.micLost) == [false, true, false])
        #expect(try store.leaderboard(songId: "song").isEmpty)
    }
}
