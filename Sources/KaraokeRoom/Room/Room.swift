import Dispatch
import EventServer
import Logging
import LyricTimeline
import RoomProtocol
import SongModel
import Synchronization

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
        /// Songs the queue holds at most; at most per guest (singer name, or address when the
        /// request has no name); and at most from one address whatever the names (phones behind
        /// one NAT, or one phone inventing names). Hosts are exempt from the last two.
        public var maxQueue = 50
        public var maxQueuedPerGuest = 5
        public var maxQueuedPerAddress = 15
        /// Seconds between checks of the songs folder for changes (0 = never).
        public var libraryRefreshInterval = 5.0
        /// Read the library off the room's queue after `start` (`serve`: a first start with
        /// 10,000 songs takes 10–25 s, and the room answers meanwhile); false reads it in `start`.
        public var indexLibraryInBackground = false
        /// The file keeping each singer's key and tempo per song across restarts (nil: memory only).
        public var keyMemoryPath: String?
        /// Where song pages point for cover thumbnails (nil: pages carry no covers).
        public var covers: CoverThumbnails?
        /// Seconds counted between two songs in the queue's estimated start times on top of the
        /// pause between songs (loading the next song, handing the microphone over).
        public var changeoverSeconds = 5.0
        /// Seconds the room waits after a song before starting the next queued one (the host
        /// changes it with `pauseBetweenSongs`; 0 starts it at once).
        public var pauseBetweenSongs = 10.0
        /// Queue changes within this many seconds go out as one `queue` event.
        public var queueCoalescing = 0.1
        /// Wrong-PIN back-off per address.
        public var pinLimits = PinAttemptLimiter.Limits()
        /// With `serve --tls`: the room PIN and host tokens are refused on plain connections
        /// (but from this machine), where anyone on the wifi could read them.
        public var secretsOnlyOverTLS = false
        /// Where a host on a plain connection is sent instead (the https remote), for the message.
        public var secureRemoteURL: String?
        /// With TLS: the certificate every page is told about (`hello.certificate`).
        public var certificate: CertificatePayload?

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
    let player: any RoomPlayer
    let catalog: any SongCatalog
    let logger: Logger
    var transport: (any RoomTransport)?
    var liveSession: (any RoomLiveSession)?
    var leaderboard: (any RoomLeaderboard)?
    var monitoring: SingerMonitoring?

    /// The library as listed and searched (the catalog reads a song only to play it).
    var songIndex = LibraryIndex()
    /// Bumped when the library changed on disk (`state.libraryVersion`).
    var libraryVersion = 0
    var libraryRefresher: (any DispatchSourceTimer)?
    /// Songs read so far while the library is first read in the background; nil once it is read.
    var libraryIndexing: Int?
    /// The singer of the song playing (from its queue request), for key memory and the views.
    var currentSinger: String?
    /// Key and tempo each singer last chose for a song (kept in `options.keyMemoryPath`).
    let keyMemory: KeyMemory
    /// The wait between songs (host setting), and when the current wait ends (monotonic).
    lazy var pauseBetweenSongs = options.pauseBetweenSongs
    /// Large print on the TV displays (percent; host setting, kept while the room runs).
    var displayScale = 100.0
    /// The companion line under lyric lines that have one (host setting, kept while the room runs).
    var lyricCompanions = LyricCompanionDisplay.translation
    var intermissionEnds: Double?
    /// True once the song's run became a practice run (see `StatePayload.practice`).
    var practiceRun = false
    var current: (entry: CatalogEntry, song: Song, payload: SongPayload, timelines: [Timeline])?
    /// Set while `current`'s audio is being prepared off the queue (see `loadSong`).
    var loading: PendingLoad?
    let loader = TrackLoader()
    var settings = RoomSettings()
    var songQueue = SongQueue()
    var history: [String] = []
    var transportState: TransportState = .stopped
    var clients: [ClientID: ClientSession] = [:]
    var linePositions: [Int: TimelinePosition] = [:]
    var results: [LineScorePayload] = []
    var totals: [Int: TotalPayload] = [:]
    /// The song that just ended, until its `results` went out (see `Room+LiveResults`).
    var finishedSong: FinishedSong?
    var lastStateSent = 0.0
    /// The latencies the last `state` carried, and when the ticker last compared fresh ones.
    var latenciesSent = LatencyReadings()
    /// The singer whose microphone is being calibrated: its clicks must be heard alone.
    var calibratingSinger: Int?
    /// Whether a phone's clicks could be heard alone now, for `PhoneSeats` off the room's queue
    /// (set every tick: `AutoRecalibration` asks every 250 ms; the room checks again before it runs).
    let recalibrationWindow = Mutex<AutoRecalibration.Window>(.busy)
    /// The calibration running is one the room started by itself (`recalibratePhone`): the
    /// host's `play` waits for it instead of being refused.
    var automaticCalibration = false
    /// Told of a part chosen for a phone seat (`PhoneSeats` keeps it through a re-take).
    var phonePartChosen: (@Sendable (_ singer: Int, _ part: Int) -> Void)?
    /// Who holds each seat (by singer index): a phone seat its phone, a microphone seat the
    /// guest who took it with `selectSinger`. Only they, or the host, change it.
    var seatHolders: [Int: ClientID] = [:]
    var lastLatencyCheck = 0.0
    var timer: (any DispatchSourceTimer)?
    lazy var pinAttempts = PinAttemptLimiter(limits: options.pinLimits)
    var hostSessions = HostSessions()
    var logThrottle = LogThrottle()
    /// Bumped whenever the room's song changes (what `song` events carry).
    var songGeneration = 0
    var queueBroadcastPending = false
    /// Faults still going on (a store that refuses writes), by the code that ends them: told
    /// again to every client that becomes host while they last (`reportStandingFault`).
    var standingFaults: [String: (code: String, message: String)] = [:]

    public init(player: any RoomPlayer, catalog: any SongCatalog, options: Options,
                logger: Logger = Logger(label: "karaoke.room")) {
        self.player = player
        self.catalog = catalog
        self.options = options
        self.logger = logger
        keyMemory = KeyMemory(path: options.keyMemoryPath, logger: logger)
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
            if options.indexLibraryInBackground {
                indexLibraryInBackground()
            } else {
                let started = MonotonicClock.now()
                let songs = catalog.index()
                let read = MonotonicClock.now()
                songIndex = LibraryIndex(songs)
                logger.info("song library: \(songs.count) song(s) read in \(Int((read - started) * 1000)) ms, indexed for search in \(Int((MonotonicClock.now() - read) * 1000)) ms")
                startLibraryRefresher()
            }
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
            libraryRefresher?.cancel()
            libraryRefresher = nil
            loader.cancelAll()
            loading?.resolve(nil)
            loading = nil
            player.stop()
        }
        keyMemory.flush()
    }

    /// Every song indexed (one per lyric file; versions not folded), for the log.
    public var library: [SongSummary] { queue.sync { songIndex.songs.map(\.summary) } }

    /// Every song indexed, with its warnings.
    public var indexedSongs: [IndexedSong] { queue.sync { songIndex.songs } }

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
            clients[client.id] = ClientSession(address: client.address, channelIsPrivate: client.overTLS || client.isLoopback)
            sendHello(to: client.id)
        }
    }

    func clientDisconnected(_ id: ClientID) {
        queue.async { [self] in
            clients[id] = nil
            // A microphone seat is free again when its guest leaves; a phone seat is the phone's
            // until `PhoneSeats` gives it up (a dropped connection may come back).
            for (singer, holder) in seatHolders where holder == id && !isPhoneSeat(singer) { seatHolders[singer] = nil }
        }
    }

    func isPhoneSeat(_ singer: Int) -> Bool {
        settings.singers.contains { $0.singer == singer && $0.source == "phone" }
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
                    let message = clients[id]?.role == .host ? error.message : error.guestMessage ?? error.message
                    sendError(to: id, code: error.code, message: message, command: command.type, id: envelope.id)
                } catch {
                    sendError(to: id, code: "failed", message: "\(error)", command: command.type, id: envelope.id)
                }
            }
        }
    }
}
