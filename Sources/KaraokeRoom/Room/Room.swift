import Dispatch
import EventServer
import Logging
import LyricTimeline
import SongModel

/// One karaoke room: song library, queue, current song, transport and settings, and the
/// clients watching it. Every mutable field lives on `queue`; public methods hop onto it,
/// so nothing here ever runs on the lws service thread or an audio thread.
public final class Room: @unchecked Sendable {
    public struct Options: Sendable {
        public var name: String
        public var pin: RoomPin
        /// False for `--no-audio` (reported to clients in `state.audio`).
        public var audio: Bool
        /// How often the ticker samples the position for `line` events.
        public var tickInterval: Double
        /// How often `state` is re-sent while playing.
        public var stateInterval: Double
        /// Names of singers 1, 2, … at start (`serve --singer`); the rest keep "Singer n".
        public var singerNames: [String] = []

        public init(name: String = "karaoke", pin: RoomPin, audio: Bool, tickInterval: Double = 0.03, stateInterval: Double = 1) {
            self.name = name
            self.pin = pin
            self.audio = audio
            self.tickInterval = tickInterval
            self.stateInterval = stateInterval
        }
    }

    public let options: Options
    let queue = DispatchQueue(label: "karaoke.room", qos: .userInitiated)
    private let player: any RoomPlayer
    private let catalog: any SongCatalog
    private let logger: Logger
    private var transport: (any RoomTransport)?
    private var liveSession: (any RoomLiveSession)?
    private var leaderboard: (any RoomLeaderboard)?
    private var monitoring: SingerMonitoring?

    private var entries: [CatalogEntry] = []
    private var current: (entry: CatalogEntry, song: Song, payload: SongPayload, timelines: [Timeline])?
    /// Set while `current`'s audio is being prepared off the queue (see `loadSong`).
    private var loading: PendingLoad?
    private let loader = TrackLoader()
    private var settings = RoomSettings()
    private var songQueue = SongQueue()
    private var history: [String] = []
    private var transportState: TransportState = .stopped
    private var clients: [ClientID: ClientSession] = [:]
    private var linePositions: [Int: TimelinePosition] = [:]
    private var results: [LineScorePayload] = []
    private var totals: [Int: TotalPayload] = [:]
    private var lastStateSent = 0.0
    /// The latencies the last `state` carried, and when the ticker last compared fresh ones.
    private var latenciesSent = LatencyReadings()
    /// The singer whose microphone is being calibrated: its clicks must be heard alone.
    private var calibratingSinger: Int?
    private var lastLatencyCheck = 0.0
    private var timer: (any DispatchSourceTimer)?

    public init(player: any RoomPlayer, catalog: any SongCatalog, options: Options,
                logger: Logger = Logger(label: "karaoke.room")) {
        self.player = player
        self.catalog = catalog
        self.options = options
        self.logger = logger
        for (index, name) in options.singerNames.enumerated() where !name.isEmpty {
            if let seat = settings.singers.firstIndex(where: { $0.singer == index }) {
                settings.singers[seat].name = name
            } else {
                settings.singers.append(SingerPayload(singer: index, name: name, part: index, micDelayMs: 0))
            }
        }
    }

    /// Wires the room to its transport and optional collaborators, scans the library and
    /// starts the ticker. Call once, before the transport accepts clients.
    public func start(transport: any RoomTransport, liveSession: (any RoomLiveSession)? = nil,
                      leaderboard: (any RoomLeaderboard)? = nil, monitoring: SingerMonitoring? = nil) {
        queue.sync {
            self.transport = transport
            self.liveSession = liveSession
            self.leaderboard = leaderboard
            self.monitoring = monitoring
            monitoring?.observe { [weak self] source, status in self?.monitoringChangedByItself(source: source, status: status) }
            entries = catalog.entries()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: options.tickInterval, leeway: .milliseconds(2))
            timer.setEventHandler { [weak self] in self?.tick() }
            timer.resume()
            self.timer = timer
        }
    }

    public func shutdown() {
        queue.sync {
            timer?.cancel()
            timer = nil
            loader.cancelAll()
            loading?.resolve(nil)
            loading = nil
            player.stop()
        }
    }

    /// The songs offered, as scanned at start.
    public var library: [SongSummary] { queue.sync { entries.map(SongPayloadBuilder.summary(for:)) } }

    /// Loads a song by id (the `--song` option) and waits until its audio is ready; the room
    /// keeps serving clients meanwhile. Throws a message naming the problem (unknown song,
    /// unreadable audio); returns without error when a newer load superseded this one.
    /// Never call it on the room's queue.
    public func load(songId: String, autoplay: Bool = false) throws {
        let waiter = LoadWaiter()
        try queue.sync {
            try loadSong(songId)
            if loading == nil { waiter.resolve(nil) } else { loading?.waiters.append(waiter) }
            if autoplay { startPlaying() }
            broadcastState()
        }
        try waiter.wait()
    }

    /// The delegate to hand to `EventServer.start`.
    public var connectionHandler: any EventServerDelegate { RoomConnectionHandler(room: self) }

    // MARK: - Clients (called from the transport thread, hop onto the queue)

    func clientConnected(_ client: ClientInfo) {
        queue.async { [self] in
            clients[client.id] = ClientSession()
            sendHello(to: client.id)
        }
    }

    func clientDisconnected(_ id: ClientID) {
        queue.async { [self] in clients[id] = nil }
    }

    func clientViolated(_ id: ClientID, _ violation: TransportViolation) {
        queue.async { [self] in
            switch violation {
            case .rateLimited: sendError(to: id, code: "rateLimited", message: "too many messages; slow down", command: nil, id: nil)
            case .binaryFrame: sendError(to: id, code: "binaryFrame", message: "binary frames are not part of the protocol", command: nil, id: nil)
            case .invalidText: sendError(to: id, code: "malformedJSON", message: "message is not valid UTF-8", command: nil, id: nil)
            }
        }
    }

    func clientSent(_ id: ClientID, _ text: String) {
        queue.async { [self] in
            guard let session = clients[id] else { return }
            switch CommandEnvelope.decode(text) {
            case .failure(let error):
                sendError(to: id, code: error.code, message: error.message, command: nil, id: nil)
            case .success(let envelope):
                let command = envelope.command
                guard session.role >= command.requiredRole else {
                    sendError(to: id, code: "forbidden",
                              message: "\"\(command.type)\" needs the \(command.requiredRole.rawValue) role; you are \(session.role.rawValue)",
                              command: command.type, id: envelope.id)
                    return
                }
                do {
                    try perform(command, from: id, requestId: envelope.id)
                } catch let error as RoomCommandError {
                    sendError(to: id, code: error.code, message: error.message, command: command.type, id: envelope.id)
                } catch {
                    sendError(to: id, code: "failed", message: "\(error)", command: command.type, id: envelope.id)
                }
            }
        }
    }

    // MARK: - Commands

    private func perform(_ command: ClientCommand, from client: ClientID, requestId: Int?) throws {
        switch command {
        case .hello(let role, let pin, let name):
            if role == .host && !options.pin.matches(pin) {
                throw RoomCommandError("badPin", "wrong room PIN (it is printed where the server was started)")
            }
            clients[client]?.role = role
            clients[client]?.name = name
            sendHello(to: client)
            return
        case .library:
            transport?.send(.library(LibraryPayload(songs: entries.map(SongPayloadBuilder.summary(for:)))), to: client)
            return
        case .results:
            sendResults(to: client)
            return
        case .play:
            try requireNoCalibration()
            if current == nil {
                guard let item = songQueue.popFirst() else { throw RoomCommandError("nothingToPlay", "no song loaded and the queue is empty") }
                try loadSong(item.songId)
            }
            startPlaying()
        case .pause:
            loading?.playWhenLoaded = false
            player.pause()
            if transportState == .playing { transportState = .paused }
        case .stop:
            loading?.playWhenLoaded = false
            player.stop()
            transportState = .stopped
            liveSession?.roomStopped()
            emitLinePositions(force: true)
        case .seek(let position):
            try requireSong()
            seek(to: position)
        case .seekLine(let part, let line):
            try requireSong()
            guard let current else { throw RoomCommandError("noSong", "no song loaded") }
            guard current.song.parts.indices.contains(part), current.song.parts[part].lines.indices.contains(line) else {
                throw RoomCommandError("badArguments", "no line \(line) in part \(part)")
            }
            seek(to: current.song.parts[part].lines[line].start)
        case .key(let semitones):
            settings.key = semitones
            player.setKey(semitones: semitones)
            liveSession?.roomSettingsChanged(settings)
        case .tempo(let ratio):
            settings.tempo = ratio
            player.setTempo(ratio)
            liveSession?.roomSettingsChanged(settings)
        case .loop(let range):
            try requireSong()
            let duration = current?.payload.duration ?? 0
            if let range, range.end > duration {
                throw RoomCommandError("badArguments", "loop end \(range.end) s is past the song's end (\(duration) s)")
            }
            settings.loop = range.map { $0.start...$0.end }
            player.setLoop(settings.loop)
            liveSession?.roomSettingsChanged(settings)
        case .next:
            try requireNoCalibration()
            guard let item = songQueue.popFirst() else { throw RoomCommandError("queueEmpty", "the queue is empty") }
            try loadSong(item.songId)
            startPlaying()
            broadcastQueue()
        case .previous:
            try requireNoCalibration()
            if mediaPosition > 3 || history.isEmpty {
                if loading == nil { seek(to: 0) }  // a loading song starts from the top anyway
            } else {
                let previous = history.removeLast()
                if let current {
                    _ = songQueue.append(songId: current.entry.id, title: current.payload.title, artist: current.payload.artist, requestedBy: nil)
                    if let last = songQueue.items.last { songQueue.move(itemId: last.itemId, to: 0) }
                }
                try loadSong(previous, recordHistory: false)
                startPlaying()
                broadcastQueue()
            }
        case .queueAdd(let songId, let requestedBy, let playNow):
            let entry = try playableEntry(songId)
            if playNow {
                try requireNoCalibration()
                try loadSong(entry.id)
                startPlaying()
            } else {
                _ = songQueue.append(songId: entry.id, title: SongPayloadBuilder.summary(for: entry).title,
                                     artist: entry.song?.metadata.artist ?? "", requestedBy: requestedBy ?? clients[client]?.name)
                broadcastQueue()
            }
        case .queueRemove(let itemId):
            guard songQueue.remove(itemId: itemId) else { throw RoomCommandError("badArguments", "no queue item \(itemId)") }
            broadcastQueue()
        case .queueMove(let itemId, let to):
            guard songQueue.move(itemId: itemId, to: to) else { throw RoomCommandError("badArguments", "no queue item \(itemId)") }
            broadcastQueue()
        case .selectSinger(let singer, let part, let name):
            let partCount = max(1, current?.song.parts.count ?? 2)
            guard part < max(partCount, 2) else { throw RoomCommandError("badArguments", "no part \(part)") }
            if let index = settings.singers.firstIndex(where: { $0.singer == singer }) {
                settings.singers[index].part = part
                if let name, !name.isEmpty { settings.singers[index].name = name }
            } else {
                settings.singers.append(SingerPayload(singer: singer, name: name ?? "Singer \(singer + 1)", part: part, micDelayMs: 0))
                settings.singers.sort { $0.singer < $1.singer }
            }
            liveSession?.roomSettingsChanged(settings)
        case .calibrate(let singer):
            guard let liveSession else {
                throw RoomCommandError("unavailable", "microphone calibration needs audio (the server runs with --no-audio)")
            }
            guard liveSession.microphone(singer: singer, seat: nil) != nil else {
                throw RoomCommandError("badArguments", "singer \(singer + 1) has no microphone to calibrate")
            }
            if transportState == .playing || loading?.playWhenLoaded == true {
                throw RoomCommandError("failed", "stop playback before calibrating: the test clicks must be heard alone")
            }
            try requireNoCalibration()
            logger.info("calibrating the microphone of singer \(singer + 1)")
            // The clicks take seconds; the outcome comes back off the room queue.
            calibratingSinger = singer
            do {
                try liveSession.calibrate(singer: singer) { [weak self] failure in
                    self?.calibrationFinished(singer: singer, failure, for: client, requestId: requestId)
                }
            } catch {
                calibratingSinger = nil
                throw error
            }
            broadcastState()
            return
        case .difficulty(let level):
            settings.difficulty = level
            liveSession?.roomSettingsChanged(settings)
        case .micDelay(let singer, let milliseconds):
            guard let index = settings.singers.firstIndex(where: { $0.singer == singer }) else {
                throw RoomCommandError("badArguments", "no singer \(singer)")
            }
            settings.singers[index].micDelayMs = milliseconds
            liveSession?.roomSettingsChanged(settings)
        case .monitor(let singer, let on):
            guard let monitoring else {
                throw RoomCommandError("unavailable", "mic monitoring needs audio and a microphone (the server runs with --no-audio or --no-mic, or no microphone opened)")
            }
            // The sound server answers off the room queue; the state follows when it has.
            try monitoring.set(singer: singer, on: on) { [weak self] failure in
                self?.monitoringSwitched(failure, for: client, requestId: requestId)
            }
            return
        }
        broadcastState()
    }

    /// A monitor switch finished: everyone sees the state, the client who asked any failure.
    private func monitoringSwitched(_ failure: RoomCommandError?, for client: ClientID, requestId: Int?) {
        queue.async { [self] in
            if let failure { sendError(to: client, code: failure.code, message: failure.message, command: "monitor", id: requestId) }
            broadcastState()
        }
    }

    /// A calibration finished: everyone sees the state (the singer's delay now `calibrated`),
    /// the client who asked any failure.
    private func calibrationFinished(singer: Int, _ failure: (any Error)?, for client: ClientID, requestId: Int?) {
        queue.async { [self] in
            calibratingSinger = nil
            if let failure {
                logger.warning("calibration of singer \(singer + 1): \(failure)")
                sendError(to: client, code: "failed", message: "calibration of singer \(singer + 1): \(failure)",
                          command: "calibrate", id: requestId)
            } else if let delay = liveSession?.microphone(singer: singer, seat: nil)?.micDelay.seconds {
                logger.info("calibrated the microphone of singer \(singer + 1): mic delay \(delay.stateMilliseconds) ms")
            }
            broadcastState()
        }
    }

    /// A microphone (or the speakers, or the sound server) went away or came back under a
    /// switched-on monitor: everyone sees whether it is heard.
    private func monitoringChangedByItself(source: String, status: MonitorStatus) {
        queue.async { [self] in
            switch status {
            case .waiting: logger.warning("mic monitoring of \(source): waiting for the device to come back")
            case .heard: logger.info("mic monitoring of \(source): heard again")
            case .off: break
            }
            broadcastState()
        }
    }

    /// Playback would spoil a calibration in progress (and its clicks the song).
    private func requireNoCalibration() throws {
        guard let singer = calibratingSinger else { return }
        throw RoomCommandError("calibrating", "singer \(singer + 1)'s microphone is being calibrated; try again in a few seconds")
    }

    private func requireSong() throws {
        if current == nil { throw RoomCommandError("noSong", "no song loaded") }
        if let loading { throw RoomCommandError("loading", "\"\(loading.songId)\" is still loading; try again when it has loaded") }
    }

    private func playableEntry(_ songId: String) throws -> CatalogEntry {
        guard let entry = entries.first(where: { $0.id == songId }) else {
            throw RoomCommandError("unknownSong", "no song \"\(songId)\" in the library")
        }
        guard entry.song != nil else {
            throw RoomCommandError("unreadableSong", "song \"\(songId)\" cannot be read: \(entry.error ?? "unknown error")")
        }
        return entry
    }

    /// Makes `songId` the current song at once (lyrics, `state.loading`) and has the loader
    /// prepare its audio; `installLoaded` swaps it in. What played before stops now; a load
    /// still pending is superseded (its track will be dropped).
    private func loadSong(_ songId: String, recordHistory: Bool = true) throws {
        let entry = try playableEntry(songId)
        guard let song = entry.song else { return }
        let payload = SongPayloadBuilder.payload(for: entry, song: song)
        if loading == nil, current != nil {
            if recordHistory, let previous = current?.entry.id { history.append(previous) }
            player.stop()
            liveSession?.roomStopped()
        }
        loading?.resolve(nil)
        let generation = loader.load(player, backingTrack: entry.backingTrackPath, duration: payload.duration) { [weak self] generation, result in
            guard let self else { return }
            queue.async { self.installLoaded(generation, result) }
        }
        loading = PendingLoad(generation: generation, songId: entry.id)
        current = (entry, song, payload, song.parts.map(Timeline.init(part:)))
        transportState = .stopped
        settings.loop = nil
        player.setLoop(nil)
        results = []
        totals = [:]
        linePositions = [:]
        logger.info("loading \(songId): \(song.metadata.artist) – \(song.metadata.title)")
        transport?.broadcast(.song(SongChangePayload(song: payload)))
    }

    /// A prepared track (or the reason there is none) arrived from the loader. Only the newest
    /// load is installed; anything older is dropped unplayed.
    private func installLoaded(_ generation: Int, _ result: Result<PreparedTrack, any Error>) {
        guard let pending = loading, pending.generation == generation, let current else { return }
        loading = nil
        var failure: (any Error)?
        switch result {
        case .success(let track):
            track.install()
            player.setLoop(nil)
            player.setKey(semitones: settings.key)
            player.setTempo(settings.tempo)
            logger.info("loaded \(pending.songId)")
            liveSession?.roomLoaded(current.entry, settings: settings)
            if pending.playWhenLoaded { startPlaying() }
        case .failure(let error):
            failure = error
            logger.error("cannot load \(pending.songId): \(error)")
            self.current = nil
            linePositions = [:]
            transport?.broadcast(.error(ErrorPayload(code: "loadFailed", message: "cannot play \"\(pending.songId)\": \(error)",
                                                     command: nil, id: nil)))
            transport?.broadcast(.song(SongChangePayload(song: nil)))
        }
        pending.resolve(failure)
        emitLinePositions(force: true)
        broadcastState()
    }

    /// Plays now, or — while the song loads — as soon as it is installed.
    private func startPlaying() {
        if loading != nil {
            loading?.playWhenLoaded = true
            return
        }
        player.play()
        transportState = .playing
    }

    /// The player's position; 0 while a song loads (it will start from the top, and the
    /// player still holds the previous track).
    private var mediaPosition: Double { loading == nil ? player.position : 0 }

    private func seek(to position: Double) {
        player.seek(to: min(max(0, position), current?.payload.duration ?? 0))
        liveSession?.roomSeeked(to: player.position)
        emitLinePositions(force: true)
    }

    // MARK: - Ticker

    private func tick() {
        refreshLatencies()
        guard current != nil else { return }
        if transportState == .playing && !player.isPlaying {
            // The player stops by itself at the end of the song, or pauses when its device is lost.
            if player.position >= (current?.payload.duration ?? 0) - 0.05 {
                finishSong()
            } else {
                transportState = .paused
                broadcastState()
            }
            return
        }
        emitLinePositions(force: false)
        if transportState == .playing && MonotonicClock.now() - lastStateSent >= options.stateInterval {
            broadcastState()
        }
    }

    private func finishSong() {
        logger.info("song finished: \(current?.entry.id ?? "-")")
        for singer in totals.keys { totals[singer]?.final = true }
        sendResults(to: nil)
        if let item = songQueue.popFirst(), (try? loadSong(item.songId)) != nil {
            startPlaying()
            broadcastQueue()
        } else {
            transportState = .stopped
            liveSession?.roomStopped()
        }
        broadcastState()
    }

    /// A room that does not play sends no periodic `state`; still, clients should see a measured
    /// latency that changed (a stream opened, a device lost or back), so compare once a state interval.
    private func refreshLatencies() {
        let now = MonotonicClock.now()
        guard transportState != .playing, now - lastLatencyCheck >= options.stateInterval else { return }
        lastLatencyCheck = now
        let state = statePayload()
        if LatencyReadings(state).differs(from: latenciesSent) { broadcast(state) }
    }

    private func emitLinePositions(force: Bool) {
        guard let current else { return }
        let position = mediaPosition
        for (partIndex, timeline) in current.timelines.enumerated() {
            let located = timeline.lookup(at: position)
            let previous = linePositions[partIndex]
            if force || previous?.current != located.current || previous?.syllable != located.syllable || previous?.next != located.next {
                linePositions[partIndex] = located
                transport?.broadcast(.line(Self.lineEvent(part: partIndex, located, at: position)))
            }
        }
    }

    private static func lineEvent(part: Int, _ located: TimelinePosition, at position: Double) -> LinePayloadEvent {
        LinePayloadEvent(part: part, line: located.current, next: located.next, syllable: located.syllable,
                         position: position, lineProgress: located.lineProgress, syllableProgress: located.syllableProgress)
    }

    // MARK: - Outgoing

    func statePayload() -> StatePayload {
        StatePayload(
            transport: transportState, position: mediaPosition, duration: current?.payload.duration ?? 0,
            songId: current?.entry.id, key: settings.key, tempo: settings.tempo,
            loop: settings.loop.map { LoopPayload(start: $0.lowerBound, end: $0.upperBound) },
            queue: songQueue.items, difficulty: settings.difficulty,
            singers: reportedSingers(), audio: options.audio,
            loading: loading != nil, playWhenLoaded: loading?.playWhenLoaded ?? false,
            outputLatencyMs: player.outputLatency?.stateMilliseconds, calibratingSinger: calibratingSinger)
    }

    /// The seats with what monitoring and live scoring know about each singer's microphone.
    private func reportedSingers() -> [SingerPayload] {
        let singers = monitoring?.annotated(settings.singers) ?? settings.singers
        guard let liveSession else { return singers }
        return singers.map { $0.reporting(liveSession.microphone(singer: $0.singer, seat: $0)) }
    }

    private func broadcastState() { broadcast(statePayload()) }

    private func broadcast(_ state: StatePayload) {
        lastStateSent = MonotonicClock.now()
        latenciesSent = LatencyReadings(state)
        transport?.broadcast(.state(state))
    }

    private func broadcastQueue() {
        transport?.broadcast(.queue(QueuePayload(queue: songQueue.items)))
    }

    private func sendHello(to client: ClientID) {
        guard let session = clients[client] else { return }
        transport?.send(.hello(HelloPayload(
            clientId: client, role: session.role, room: options.name, song: current?.payload,
            library: entries.map(SongPayloadBuilder.summary(for:)), state: statePayload(), results: results)), to: client)
        if let current {
            let position = mediaPosition
            for (partIndex, timeline) in current.timelines.enumerated() {
                transport?.send(.line(Self.lineEvent(part: partIndex, timeline.lookup(at: position), at: position)), to: client)
            }
        }
    }

    private func sendError(to client: ClientID, code: String, message: String, command: String?, id: Int?) {
        transport?.send(.error(ErrorPayload(code: code, message: message, command: command, id: id)), to: client)
    }

    /// Sends this song's results (to one client, or everyone when nil); the leaderboard is
    /// read off the room queue, so a slow database never holds up the room.
    private func sendResults(to client: ClientID?) {
        let payload = ResultsPayload(songId: current?.entry.id, lines: results,
                                     totals: totals.values.sorted { $0.singer < $1.singer }, leaderboard: [])
        let deliver: @Sendable (ResultsPayload) -> Void = { [weak self] payload in
            guard let room = self else { return }
            room.queue.async {
                if let client { room.transport?.send(.results(payload), to: client) } else { room.transport?.broadcast(.results(payload)) }
            }
        }
        guard let leaderboard else {
            if let client { transport?.send(.results(payload), to: client) } else { transport?.broadcast(.results(payload)) }
            return
        }
        Task {
            var complete = payload
            complete.leaderboard = await leaderboard.leaderboard(songId: payload.songId)
            deliver(complete)
        }
    }

    // MARK: - Live pipeline results (RoomEventSink)

    /// Whether a live result belongs to the song the room has now (results of the previous song
    /// can arrive after the next one was chosen; they must not count for it).
    private func isCurrent(songId: String?) -> Bool {
        songId == nil || songId == current?.entry.id
    }

    fileprivate func recordLineScore(_ score: LineScorePayload) {
        queue.async { [self] in
            guard isCurrent(songId: score.songId) else { return }
            results.append(score)
            transport?.broadcast(.lineScore(score))
        }
    }

    fileprivate func recordTotal(_ total: TotalPayload) {
        queue.async { [self] in
            guard isCurrent(songId: total.songId) else { return }
            totals[total.singer] = total
            transport?.broadcast(.total(total))
        }
    }

    fileprivate func forward(_ event: ServerEvent) {
        queue.async { [self] in transport?.broadcast(event) }
    }
}

extension Room: RoomEventSink {
    /// Pitch frames are droppable in the transport queues; the room keeps no copy.
    public func publishPitch(_ pitch: PitchPayload) {
        queue.async { [self] in transport?.broadcast(.pitch(pitch)) }
    }
    public func publishLineScore(_ score: LineScorePayload) { recordLineScore(score) }
    public func publishTotal(_ total: TotalPayload) { recordTotal(total) }
    public func publishDevice(_ device: DevicePayload) { forward(.device(device)) }
}

/// Leaderboard rows for the results view (`StoreLeaderboard` reads the score store).
public protocol RoomLeaderboard: Sendable {
    func leaderboard(songId: String?) async -> [LeaderboardEntryPayload]
}

/// A command the room refused, with the code and message sent back to the client.
struct RoomCommandError: Error {
    let code: String
    let message: String
    init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// Bridges lws callbacks (service thread) to the room's queue.
final class RoomConnectionHandler: EventServerDelegate {
    private let room: Room
    init(room: Room) { self.room = room }
    func clientConnected(_ client: ClientInfo) { room.clientConnected(client) }
    func client(_ id: ClientID, sent text: String) { room.clientSent(id, text) }
    func client(_ id: ClientID, violated violation: TransportViolation) { room.clientViolated(id, violation) }
    func clientDisconnected(_ id: ClientID) { room.clientDisconnected(id) }
}
