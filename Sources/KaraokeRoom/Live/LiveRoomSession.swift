import AudioEngine
import Foundation
import LiveScoring
import Logging
import RoomProtocol
import ScoreStore
import Scoring
import SongModel
import Synchronization

/// Scores the room's singers live: one pitch worker per microphone (singer i = microphone i),
/// each feeding a fresh `ScoringSession` per run. Publishes `pitch` (every `pitchStride`-th
/// frame and every change of voicing, droppable), `lineScore` per closed line (and stores it),
/// and a running `total`.
///
/// Runs: loading a song starts a run per singer at the song's start. A seek, a loop jump back,
/// or a change of difficulty/key/tempo/mic delay/singers ends the current run (left incomplete
/// in the store unless every line was already judged) and starts a new *practice* run from the
/// new position: lines before it are not judged, so a jump never scores skipped lines as zero.
/// The room stopping or a new song ends the run; it is stored complete only if every line was judged.
///
/// The room calls it on its queue; all work hops onto a private queue, so the room never waits
/// for a worker, calibration or the database. Audio callbacks are never touched.
public final class LiveRoomSession: RoomLiveSession, @unchecked Sendable {
    public struct Options: Sendable {
        /// Mic delay for a singer whose room setting is 0 and who has no calibration.
        public var defaultMicDelay = ScoringConfiguration.defaultMicDelay
        /// Publish every n-th pitch frame (detector hop 10 ms → 20 ms at 2).
        public var pitchStride = 2
        /// Where `calibrate` keeps measured delays (`CalibrationStore`); nil = none.
        public var calibrationPath: String? = CalibrationStore.defaultPath
        /// Output sink the calibration clicks play on.
        public var output: String?
        public init() {}
    }

    private let microphones: [LiveMicrophone]
    private let clock: PlaybackClock
    private let store: ScoreStore?
    private let options: Options
    private weak var sink: (any RoomEventSink)?
    private let queue = DispatchQueue(label: "karaoke.live-session")
    private let logger = Logger(label: "karaoke.live")
    private var workers: [LiveSingerWorker] = []
    // State below lives on `queue`.
    private var entry: CatalogEntry?
    private var settings = RoomSettings()
    /// Measured delay per source key; a Mutex rather than `queue` state because the room reads it
    /// for every `state` and must not wait behind a calibration running on `queue`.
    private let calibrated = Mutex<[String: Double]>([:])
    /// Each phone singer's mic delay as its current run uses it (seconds): how late its stamps
    /// run, for its bleed reference (`LivePitchTracker.referenceShift`); read by its worker.
    private let phoneShifts = PhoneShifts()

    private final class PhoneShifts: Sendable {
        let values = Mutex<[Int: Double]>([:])
    }

    /// - Parameter backing: what the room's speakers were fed (`PlaybackEngine.renderedOutput`):
    ///   the reference that removes the backing bleeding into the microphones; nil = none.
    public init(microphones: [LiveMicrophone], clock: PlaybackClock, backing: RenderedOutputTap? = nil,
                sink: any RoomEventSink, store: ScoreStore?, options: Options = .init()) {
        self.microphones = microphones
        self.clock = clock
        self.store = store
        self.options = options
        self.sink = sink
        if let path = options.calibrationPath, let saved = try? CalibrationStore.load(path: path) {
            calibrated.withLock { $0 = saved.inputs.mapValues(\.delaySeconds) }
        }
        let output = LiveSingerWorker.Output(
            samples: { [weak self] run, samples in self?.publishPitch(run, samples) },
            lines: { [weak self] run, lines in self?.publishLines(run, lines) },
            jumped: { [weak self] position in self?.clockJumped(to: position) })
        var workers: [LiveSingerWorker] = []
        for (singer, microphone) in microphones.enumerated() {
            let shift = microphone.phone == nil ? nil : Self.phoneShift(singer: singer, shifts: phoneShifts, defaultDelay: options.defaultMicDelay)
            let lagWatch = microphone.phone.map { phone in { @Sendable (lag: Double) in phone.noteBackingLag(lag) } }
            workers.append(LiveSingerWorker(channel: microphone.channel, clock: clock, backing: backing, pitchStride: options.pitchStride,
                                            output: output, maximumLag: microphone.maximumLag, referenceShift: shift,
                                            onBackingLag: lagWatch))
        }
        self.workers = workers
        workers.forEach { $0.start() }
    }

    private static func phoneShift(singer: Int, shifts: PhoneShifts, defaultDelay: Double) -> @Sendable () -> Double {
        { shifts.values.withLock { $0[singer] ?? defaultDelay } }
    }

    /// Singers scored: one per microphone channel.
    public var singerCount: Int { microphones.count }

    /// Stops the workers (after ending the current runs).
    public func close() {
        queue.sync {
            endRuns(final: true)
        }
        workers.forEach { $0.stop() }
    }

    // MARK: - RoomLiveSession

    public func roomLoaded(_ entry: CatalogEntry, settings: RoomSettings) {
        queue.async { [self] in
            endRuns(final: true)
            self.entry = entry
            self.settings = settings
            startRuns(at: 0)
        }
    }

    public func roomSettingsChanged(_ settings: RoomSettings) {
        queue.async { [self] in
            let old = self.settings
            self.settings = settings
            guard entry != nil, Self.scoringChanged(old, settings) else { return }
            let position = clock.mediaTimeNow() ?? 0
            guard let seats = Self.changedSeats(old, settings) else { return restart(at: position) }
            // Only some seats changed (a seat's difficulty, mic delay, part): the others sing on.
            for singer in seats {
                endRuns(final: false, only: singer)
                startRuns(at: position, only: singer)
            }
        }
    }

    public func roomSeeked(to mediaSeconds: Double) {
        queue.async { [self] in
            guard entry != nil else { return }
            restart(at: mediaSeconds)
        }
    }

    public func roomStopped() {
        queue.async { [self] in
            endRuns(final: true)
            // A replay after stop starts from the top, as the room does.
            if entry != nil { startRuns(at: 0) }
        }
    }

    /// The room asks only while its track is not playing (the clicks must be heard alone).
    public func calibrate(singer: Int, done: @escaping @Sendable ((any Error)?) -> Void) throws {
        guard microphones.indices.contains(singer) else { throw LiveSessionError("no microphone for singer \(singer + 1)") }
        let phone = microphones[singer].phone
        if let phone, !phone.isSeated { throw LiveSessionError("singer \(singer + 1) has no phone seated") }
        queue.async { [self] in
            let result: InputCalibration
            let key = calibrationKey(singer: singer, seat: settings.singers.first { $0.singer == singer })
            do {
                if let phone {
                    result = try PhoneCalibrator(output: options.output, slot: phone).run()
                    phone.markCalibrated()
                } else {
                    let measured = try LatencyCalibrator(output: options.output, inputs: [microphones[singer].source]).run()
                    guard let first = measured.values.first else { throw LiveSessionError("the calibrator measured nothing") }
                    result = first
                }
            } catch {
                done(error)
                return
            }
            calibrated.withLock { $0[key] = result.delaySeconds }
            var notKept: (any Error)?
            if let path = options.calibrationPath {
                do {
                    // An unreadable file is reported, not overwritten: it holds other inputs' delays.
                    var saved = try CalibrationStore.load(path: path)
                    saved.inputs[key] = result
                    saved.measuredAt = Date()
                    try saved.save(path: path)
                } catch {
                    notKept = LiveSessionError(String(format: "measured %.1f ms and using it, but could not keep it: %@",
                                                      result.delaySeconds * 1000, "\(error)"))
                }
            }
            if entry != nil { restart(at: clock.mediaTimeNow() ?? 0) }
            done(notKept)
        }
    }

    public func microphone(singer: Int, seat: SingerPayload?) -> MicrophoneReport? {
        guard microphones.indices.contains(singer) else { return nil }
        let microphone = microphones[singer]
        if let phone = microphone.phone {
            guard phone.isSeated else { return nil }
            var delay = micDelay(singer: singer, seat: seat)
            let moved = Self.timingCorrection(of: microphone, delay: delay)?() ?? 0
            delay.seconds += moved
            return MicrophoneReport(inputLatency: nil, micDelay: delay, phoneStatus: phone.status(now: HostClock.now()),
                                    needsCalibration: phone.needsCalibration, followedMove: moved == 0 ? nil : moved)
        }
        return MicrophoneReport(inputLatency: microphone.inputLatency(), micDelay: micDelay(singer: singer, seat: seat))
    }

    /// A phone seat was taken (`seat`) or given up (nil): only that singer's run changes. A
    /// singer joining mid-song gets a practice run from the current position (lines before
    /// it are not judged); one leaving ends its run (stored incomplete).
    public func seatChanged(singer: Int, seat: SingerPayload?) {
        queue.async { [self] in
            guard workers.indices.contains(singer) else { return }
            settings.singers.removeAll { $0.singer == singer }
            if let seat {
                settings.singers.append(seat)
                settings.singers.sort { $0.singer < $1.singer }
            }
            endRuns(final: true, only: singer)
            guard seat != nil, entry != nil else { return }
            let position = clock.isRunning ? (clock.mediaTimeNow() ?? 0) : 0
            startRuns(at: position, only: singer)
        }
    }

    // MARK: - Runs (on `queue`)

    private static func scoringChanged(_ a: RoomSettings, _ b: RoomSettings) -> Bool {
        a.key != b.key || a.tempo != b.tempo || a.difficulty != b.difficulty || a.singers != b.singers
    }

    /// The singers whose seat changed when nothing room-wide did; nil when key, tempo or the
    /// room's difficulty changed (every run restarts).
    static func changedSeats(_ a: RoomSettings, _ b: RoomSettings) -> Set<Int>? {
        guard a.key == b.key, a.tempo == b.tempo, a.difficulty == b.difficulty else { return nil }
        let before = Dictionary(a.singers.map { ($0.singer, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(b.singers.map { ($0.singer, $0) }, uniquingKeysWith: { first, _ in first })
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
    }

    private func restart(at position: Double) {
        endRuns(final: false)
        startRuns(at: position)
    }

    private func startRuns(at position: Double, only: Int? = nil) {
        guard let entry, let song = entry.song, !song.parts.isEmpty else { return }
        for (singer, worker) in workers.enumerated() where (only == nil || only == singer) && microphones[singer].isSeated {
            let seat = settings.singers.first { $0.singer == singer }
            let part = min(max(seat?.part ?? singer, 0), song.parts.count - 1)
            let delay = micDelay(singer: singer, seat: seat)
            let configuration = ScoringConfiguration(
                difficulty: Self.difficulty(of: seat, room: settings),
                keyShift: settings.key, tempo: settings.tempo, micDelay: delay.seconds)
            if microphones[singer].phone != nil { phoneShifts.values.withLock { $0[singer] = configuration.micDelay } }
            guard var reference = try? ReferencePart(song: song, partIndex: part, keyShift: settings.key) else { continue }
            let fromStart = position <= (reference.lines.first?.start ?? 0)
            reference.lines = reference.lines.filter { $0.start >= position - 0.05 }
            let name = seat?.name ?? "Singer \(singer + 1)"
            let session = ScoringSession(reference: reference, configuration: configuration)
            let claimed = Self.isClaimed(singer: singer, seat: seat, phone: microphones[singer].phone != nil)
            let recorder = store.map {
                LiveRunRecorder(store: $0, start: PerformanceStart(
                    songId: entry.id, songTitle: song.metadata.title, singer: name, part: part,
                    configuration: configuration, basis: reference.basis), claimed: claimed)
            }
            var run = LiveSingerRun(songId: entry.id, singer: singer, name: name, part: part, session: session,
                                    recorder: recorder, fromStart: fromStart, startPosition: position)
            run.timingCorrection = Self.timingCorrection(of: microphones[singer], delay: delay)
            _ = worker.swap(run)
        }
    }

    /// Whether a seat's run is stored even when nothing is sung (`LiveRunRecorder.claimed`): a
    /// phone seat (scored only while someone holds it), or a microphone someone named (`--singer`,
    /// `selectSinger` with a name). A PulseAudio channel still called "Singer N" is unclaimed: it
    /// is stored only once something was sung into it.
    static func isClaimed(singer: Int, seat: SingerPayload?, phone: Bool) -> Bool {
        if phone { return true }
        guard let name = seat?.name else { return false }
        return name != "Singer \(singer + 1)"
    }

    /// A phone seat scored on its calibration follows its timing's later moves during the song
    /// (`PhoneMicSlot.timingCorrection`); any other delay stays as it was set.
    static func timingCorrection(of microphone: LiveMicrophone, delay: EffectiveMicDelay) -> (@Sendable () -> Double)? {
        guard let phone = microphone.phone, delay.source == .calibrated else { return nil }
        return { phone.timingCorrection }
    }

    /// The seat's own difficulty, else the room's.
    static func difficulty(of seat: SingerPayload?, room: RoomSettings) -> Difficulty {
        seat?.difficulty ?? room.difficulty
    }

    /// Ends every current run: `final` publishes the final total; a run whose every line was judged is stored complete.
    private func endRuns(final: Bool, only: Int? = nil) {
        for (singer, worker) in workers.enumerated() where only == nil || only == singer {
            // A run that judged no line leaves no row and no total.
            guard let old = worker.swap(nil), !old.session.lineResults.isEmpty else { continue }
            let total = old.session.result.total
            if old.session.isFinished, old.fromStart { old.recorder?.finish(total: total) }
            sink?.publishTotal(TotalPayload(singer: old.singer, name: old.name, score: Double(total), final: final, songId: old.songId,
                                            difficulty: old.session.configuration.difficulty.rawValue))
        }
    }

    /// Any thread (the room asks for its state; runs start on `queue`).
    private func micDelay(singer: Int, seat: SingerPayload?) -> EffectiveMicDelay {
        let key = calibrationKey(singer: singer, seat: seat)
        return EffectiveMicDelay.resolve(roomSettingMs: seat?.micDelayMs, calibrated: calibrated.withLock { $0[key] },
                                         defaultDelay: options.defaultMicDelay)
    }

    /// Where a singer's measured delay is kept: the PulseAudio source, or for a phone seat the
    /// singer's name (a guest's phone comes back under the same name).
    private func calibrationKey(singer: Int, seat: SingerPayload?) -> String {
        if microphones[singer].phone != nil { return PhoneSeats.calibrationKey(name: seat?.name ?? "") }
        return CalibrationStore.key(for: microphones[singer].source)
    }

    /// A worker saw the clock jump (an A–B loop, or a seek announced late): new runs from there.
    private func clockJumped(to position: Double) {
        queue.async { [self] in
            guard entry != nil else { return }
            restart(at: position)
        }
    }

    // MARK: - Publishing (on the worker threads)

    private func publishPitch(_ run: LiveSingerRun, _ samples: [PitchSample]) {
        guard let sink else { return }
        let delay = run.session.configuration.micDelayMedia
        let configuration = run.session.configuration
        for sample in samples {
            let time = sample.time - delay
            let target = Self.targetMidi(in: run.session.reference, at: time)
            let hit = sample.midi.flatMap { sung in
                // The same rule the score uses (whole-semitone rounding by default), so a note
                // shown as hit is a note scored as hit.
                target.map { configuration.isHit(deviation: ScoringRules.foldedDeviation(sung: sung, target: $0)) }
            } ?? false
            sink.publishPitch(PitchPayload(
                singer: run.singer, time: time, hz: sample.midi.map { MusicalPitch.hz(fromMidi: $0) } ?? 0,
                midi: sample.midi, target: target.map { Int($0.rounded()) }, hit: hit))
        }
    }

    private func publishLines(_ run: LiveSingerRun, _ lines: [ClosedLine]) {
        for line in lines {
            sink?.publishLineScore(LineScorePayload(singer: run.singer, part: run.part, result: line.result, songId: run.songId))
            if !line.heard {
                let lag = microphones.indices.contains(run.singer) ? microphones[run.singer].maximumLag : 0
                logger.warning("\(run.name): line \(line.result.lineIndex + 1) judged without its audio (none came within \(lag) s); stored marked lost")
            }
            run.recorder?.record(line.result, micLost: !line.heard || micWasLost(run, during: line.result))
        }
        sink?.publishTotal(TotalPayload(singer: run.singer, name: run.name, score: Double(run.session.result.total), final: false,
                                        songId: run.songId, difficulty: run.session.configuration.difficulty.rawValue))
    }

    /// Whether the run's microphone was lost while `line` was sung (worker thread, as it closes):
    /// a device event (a PulseAudio source gone or moved), or a gap in a phone's stream; the
    /// line's media span mapped back to host time through the clock, with half a second of slack.
    private func micWasLost(_ run: LiveSingerRun, during line: LineResult) -> Bool {
        guard microphones.indices.contains(run.singer), let losses = microphones[run.singer].losses else { return false }
        let hostNow = HostClock.now()
        guard let position = clock.mediaTimeNow() else { return losses.isLost }
        let tempo = max(run.session.configuration.tempo, 0.1)
        let delay = run.session.configuration.micDelayMedia
        let start = hostNow - (position - line.start) / tempo - 0.5
        let end = hostNow - (position - line.end - delay) / tempo + 0.5
        return losses.wasLost(from: start, to: end)
    }

    /// The (key-shifted) note being sung at `time`, nil between notes.
    static func targetMidi(in reference: ReferencePart, at time: Double) -> Double? {
        for line in reference.lines where line.start <= time + 0.5 && time <= line.judgedEnd {
            if let note = line.notes.first(where: { $0.start <= time && time < $0.end }) { return note.targetMidi }
        }
        return nil
    }
}

/// A live-session problem for the client that asked (e.g. calibration while playing).
public struct LiveSessionError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
