@testable import AudioEngine
import AudioFiles
import EventServer
import Foundation
import KaraokeRoom
import RoomProtocol
import ScoreStore
import SongFormats
import SongModel
import TestSupport
import Testing

/// The room as `serve` builds it (PlaybackEngine player, DirectorySongCatalog, LiveRoomSession on
/// the engine's clock, score store), playing a small generated duet-style song: the track's
/// right channel is a singer in tune, its left channel the same melody a fourth too high. The
/// microphones are the two channels of `speaker.monitor` (split mode), so singer 0 sings wrong,
/// singer 1 right. The room must publish high line scores for singer 1, low for singer 0, and the
/// store must hold both performances line by line, complete at the end of the song.
extension PulseAudioTests {
@Suite struct LiveRoomSessionEndToEndTests {
    /// Records what the room broadcasts.
    final class RecordingTransport: RoomTransport, @unchecked Sendable {
        let events = EventLog<ServerEvent>()
        /// Each broadcast with the player's position when it was produced (set before the room starts).
        let stamped = EventLog<(event: ServerEvent, position: Double)>()
        var position: (@Sendable () -> Double)?
        func broadcast(_ event: ServerEvent) {
            events.append(event)
            if let position { stamped.append((event, position())) }
        }
        /// What was sent to one client only (errors that differ by role, hellos).
        let sent = EventLog<(client: ClientID, event: ServerEvent)>()
        func send(_ event: ServerEvent, to client: ClientID) { sent.append((client, event)) }
        func close(_ client: ClientID, status: UInt16, reason: String) {}

        func errors(to client: ClientID) -> [ErrorPayload] {
            sent.all.compactMap { entry -> ErrorPayload? in
                guard entry.client == client, case .error(let error) = entry.event else { return nil }
                return error
            }
        }
    }

    static let songText = """
        #TITLE:Live Room Test
        #ARTIST:Tests
        #MP3:backing.wav
        #BPM:120
        #GAP:500
        : 0 4 0 One
        : 4 4 4  two
        * 8 4 7  three
        : 12 4 4  four
        - 18
        : 20 4 2 Five
        : 24 4 5  six
        : 28 4 9  se
        : 32 4 5 ven
        - 38
        : 40 4 7 Eight
        : 44 4 11  nine
        : 48 4 12  ten
        : 52 4 7  end
        E

        """

    /// The song folder, store, engine, capture, room and live session, wired as `serve` wires them.
    final class Fixture {
        let folder: URL
        let store: SQLiteScoreStore
        let engine: PlaybackEngine
        let capture: CaptureEngine
        let room: Room
        let live: LiveRoomSession
        let transport = RecordingTransport()

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-room-\(UUID().uuidString)")
            let songDir = folder.appendingPathComponent("songs/live-test")
            try FileManager.default.createDirectory(at: songDir, withIntermediateDirectories: true)
            let txt = songDir.appendingPathComponent("live-test.txt").path
            try LiveRoomSessionEndToEndTests.songText.write(toFile: txt, atomically: true, encoding: .utf8)
            let song = try SongFileReader.read(path: txt)
            let rate = 48_000.0, seconds = 9.0
            let inTune = LiveScoringEndToEndTests.singer(for: song, key: 0, seconds: seconds, rate: rate)
            let wrong = LiveScoringEndToEndTests.singer(for: song, key: 5, seconds: seconds, rate: rate)
            var interleaved = [Float](repeating: 0, count: inTune.count * 2)
            for i in inTune.indices { interleaved[2 * i] = wrong[i]; interleaved[2 * i + 1] = inTune[i] }
            try AudioFile.write(AudioBuffer(samples: interleaved, sampleRate: rate, channels: 2),
                                to: songDir.appendingPathComponent("backing.wav").path, format: .wavFloat)

            store = try SQLiteScoreStore(path: folder.appendingPathComponent("karaoke.sqlite").path)
            engine = try PlaybackEngine(configuration: .init(device: "speaker"))
            capture = try CaptureEngine(configuration: .init(source: "speaker.monitor", layout: .channelsAsSingers))
            var roomOptions = Room.Options(pin: RoomPin("1234")!, audio: true)
            roomOptions.singerNames = ["Wrong Pitch", "In Tune"]
            room = Room(player: engine, catalog: try DirectorySongCatalog(directory: folder.appendingPathComponent("songs").path),
                        options: roomOptions)
            var liveOptions = LiveRoomSession.Options()
            liveOptions.defaultMicDelay = 0  // the monitor of the speaker: no acoustic path
            liveOptions.calibrationPath = nil
            live = LiveRoomSession(microphones: LiveMicrophone.all(of: capture, source: "speaker.monitor"),
                                   clock: engine.clock, sink: room, store: store, options: liveOptions)
            let engine = engine
            transport.position = { engine.position }
            room.start(transport: transport, liveSession: live)
        }

        func close() {
            live.close()
            room.shutdown()
            capture.close()
            engine.close()
            try? FileManager.default.removeItem(at: folder)
        }

        var lineScores: [LineScorePayload] {
            transport.events.all.compactMap { if case .lineScore(let s) = $0 { s } else { nil } }
        }

        var states: [StatePayload] {
            transport.events.all.compactMap { if case .state(let s) = $0 { s } else { nil } }
        }
    }

    /// The room's `state` carries PulseAudio's readings of the real streams: the backing track's
    /// output latency and each microphone's input latency, in a plausible range and matching what
    /// the engines report; the mic delay is the session's default (0 here), and says so.
    @Test func stateCarriesTheEnginesMeasuredLatencies() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        try fixture.room.load(songId: "live-test", autoplay: true)
        var state: StatePayload?
        let measured = waitUntil(timeout: 10) {
            state = fixture.states.last { $0.outputLatencyMs != nil && $0.singers.allSatisfy { $0.inputLatencyMs != nil } }
            return state != nil
        }
        #expect(measured, "no state with every latency: \(fixture.states.last.map { "\($0)" } ?? "no state")")
        guard let state, let output = state.outputLatencyMs else { return }
        let engineOutput = try #require(fixture.engine.outputLatency) * 1000
        print("state: output latency \(output) ms (engine now \(engineOutput) ms), inputs \(state.singers.map { $0.inputLatencyMs ?? -1 }) ms")
        // The engine asks for a 100 ms buffer; the null sink adds little. A constant or a unit slip would miss this.
        #expect(output > 5 && output < 250, "output latency \(output) ms")
        #expect(abs(output - engineOutput) < 30, "state \(output) ms vs engine \(engineOutput) ms")
        let engineInput = try #require(fixture.capture.inputLatency) * 1000
        #expect(state.singers.count == 2)
        for singer in state.singers {
            let input = try #require(singer.inputLatencyMs)
            #expect(input >= 0 && input < 200, "input latency \(input) ms")
            #expect(abs(input - engineInput) < 30, "state \(input) ms vs engine \(engineInput) ms")
            #expect(singer.micDelaySource == .default && singer.effectiveMicDelayMs == 0)
        }
        // While it plays, the periodic states keep carrying a plausible reading that agrees with
        // the engine's. (Two of them may be equal: the ticker and the sink's write cycle can keep
        // the same phase: five states in a row read 32.9 ms in one local run; RoomLatencyTests shows each state reads anew.)
        let count = fixture.states.count
        #expect(waitUntil(timeout: 4) { fixture.states.dropFirst(count).count >= 2 }, "fewer than two periodic states in 4 s")
        for later in fixture.states.dropFirst(count) {
            let reading = try #require(later.outputLatencyMs, "a state at \(later.position) s without a reading")
            let engineNow = try #require(fixture.engine.outputLatency) * 1000
            #expect(reading > 5 && reading < 250 && abs(reading - engineNow) < 30, "state \(reading) ms vs engine \(engineNow) ms")
        }
    }

    @Test func roomScoresTwoSingersLiveAndStoresTheirLines() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let (store, room, transport, capture) = (fixture.store, fixture.room, fixture.transport, fixture.capture)
        #expect(capture.channels.count == 2)
        try room.load(songId: "live-test", autoplay: true)

        // Both singers' final totals arrive when the song ends (about 9 s).
        let finals = { transport.events.all.compactMap { event -> TotalPayload? in
            if case .total(let t) = event, t.final { t } else { nil }
        } }
        #expect(waitUntil(timeout: 25) { Set(finals().map(\.singer)) == [0, 1] }, "no final totals: \(transport.events.all.count) events")
        // The stopped room re-arms a run from the top; nothing more may be judged or stored while it stays stopped.
        Thread.sleep(forTimeInterval: 1.5)

        let lines = transport.events.all.compactMap { event -> LineScorePayload? in
            if case .lineScore(let s) = event { s } else { nil }
        }
        let pitches = transport.events.all.compactMap { event -> PitchPayload? in
            if case .pitch(let p) = event { p } else { nil }
        }
        let good = lines.filter { $0.singer == 1 }, bad = lines.filter { $0.singer == 0 }
        print("in tune \(good.map { Int($0.score) }) wrong \(bad.map { Int($0.score) }) of \(good.map { Int($0.maxScore) }); \(pitches.count) pitch frames")
        #expect(good.map(\.line) == [0, 1, 2])
        #expect(bad.map(\.line) == [0, 1, 2])
        for line in good { #expect(line.score > 0.8 * line.maxScore, "in-tune line \(line.line): \(line.score) of \(line.maxScore)") }
        for line in bad { #expect(line.score < 0.2 * line.maxScore, "wrong line \(line.line): \(line.score) of \(line.maxScore)") }
        // Pitch frames name the target and say whether it was hit.
        let goodVoiced = pitches.filter { $0.singer == 1 && $0.target != nil && $0.midi != nil }
        let badVoiced = pitches.filter { $0.singer == 0 && $0.target != nil && $0.midi != nil }
        #expect(goodVoiced.count > 50)
        #expect(Double(goodVoiced.filter(\.hit).count) > 0.8 * Double(goodVoiced.count))
        #expect(Double(badVoiced.filter(\.hit).count) < 0.2 * Double(max(badVoiced.count, 1)))
        let finalTotals = Dictionary(uniqueKeysWithValues: finals().map { ($0.singer, $0) })
        #expect(finalTotals[1]?.name == "In Tune")
        #expect((finalTotals[1]?.score ?? 0) > 8000)
        #expect((finalTotals[0]?.score ?? 10_000) < 2000)

        // The store: one complete performance per singer, every line recorded.
        // Store writes run as tasks on the cooperative pool, which CPU-bound tests running in
        // parallel can hold for many seconds: wait generously (it returns as soon as they land).
        var rows: [PerformanceRecord] = []
        _ = waitUntil(timeout: 60) {
            rows = ((try? store.history(singer: "In Tune")) ?? []) + ((try? store.history(singer: "Wrong Pitch")) ?? [])
            return rows.count == 2 && rows.allSatisfy { $0.finishedAt != nil }
        }
        #expect(rows.count == 2)
        for row in rows {
            let expected = row.singer == "In Tune" ? finalTotals[1] : finalTotals[0]
            #expect(row.songId == "live-test")
            #expect(row.finishedAt != nil, "\(row.singer) not complete")
            #expect(Double(row.total) == expected?.score)
            #expect((try? store.lines(of: row.id ?? -1).count) == 3)
        }
    }

    /// Glass-to-event latency as a singer sees it: the microphone is the speaker's monitor, so a
    /// sample enters it when it is played, at media time t. A pitch event for t is produced
    /// when the player is at `position`; `position − t` is how far the pitch display lags the
    /// sound. A line's score is produced `position − (its last note's end)` after it was sung.
    @Test func glassToEventLatency() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        try fixture.room.load(songId: "live-test", autoplay: true)
        let song = try SongFileReader.read(path: fixture.folder.appendingPathComponent("songs/live-test/live-test.txt").path)
        #expect(waitUntil(timeout: 25) { fixture.lineScores.filter { $0.singer == 1 }.count == 3 })
        var pitchLags: [Double] = [], lineLags: [Double] = []
        for (event, position) in fixture.transport.stamped.all {
            switch event {
            case .pitch(let p) where p.singer == 1 && p.midi != nil:
                pitchLags.append(position - p.time)
            case .lineScore(let l) where l.singer == 1:
                let lastNoteEnd = song.parts[0].lines[l.line].syllables.last { $0.note != nil }!.end
                lineLags.append(position - lastNoteEnd)
            default: break
            }
        }
        pitchLags.sort()
        let median = pitchLags[pitchLags.count / 2], p95 = pitchLags[Int(Double(pitchLags.count) * 0.95)]
        print(String(format: "glass-to-pitch-event: n=%d median %.1f ms p95 %.1f ms max %.1f ms; glass-to-line-score: %@ ms",
                     pitchLags.count, median * 1000, p95 * 1000, pitchLags.last! * 1000,
                     lineLags.map { String(format: "%.1f", $0 * 1000) }.joined(separator: ", ")))
        #expect(pitchLags.count > 50)
        // The detector needs its window's second half (≈ 24 ms) after the frame time; the worker polls every 10 ms.
        #expect(median > 0.01 && median < 0.1, "median pitch lag \(median)")
        #expect(lineLags.count == 3)
        // A line waits for the detector's frames up to its last note's end (≈ 24 ms of lookahead),
        // then is judged at the worker's next 10 ms step.
        for lag in lineLags { #expect(lag > 0.02 && lag < 0.25, "line score \(lag) s after its last note") }
    }

    /// A seek ends the run and starts a practice run there: lines before it are never judged,
    /// the rest are; the stored performance stays incomplete.
    @Test func seekStartsAPracticeRunFromTheNewPosition() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        try fixture.room.load(songId: "live-test")
        // What the room does on a `seek` command: move the player, then tell the live session.
        fixture.engine.seek(to: 2.9)
        fixture.live.roomSeeked(to: fixture.engine.position)
        fixture.engine.play()
        #expect(waitUntil(timeout: 15) { fixture.lineScores.filter { $0.singer == 1 }.count >= 2 })
        fixture.engine.pause()
        Thread.sleep(forTimeInterval: 0.5)
        let good = fixture.lineScores.filter { $0.singer == 1 }
        #expect(good.map(\.line) == [1, 2], "line 0 was skipped by the seek")
        for line in good { #expect(line.score > 0.8 * line.maxScore, "line \(line.line): \(line.score) of \(line.maxScore)") }
        var rows: [PerformanceRecord] = []
        _ = waitUntil(timeout: 60) {
            rows = (try? fixture.store.history(singer: "In Tune")) ?? []
            return rows.first.map { (try? fixture.store.lines(of: $0.id ?? -1).count) == 2 } ?? false
        }
        #expect(rows.count == 1)
        #expect(rows.first?.finishedAt == nil, "a practice run is never complete")
        let stored = rows.first.flatMap { try? fixture.store.lines(of: $0.id ?? -1).map(\.lineIndex) }
        #expect(stored == [1, 2], "stored lines \(String(describing: stored))")
    }
}
}
