import ArgumentParser
import AudioEngine
import Dispatch
import EventServer
import Foundation
import KaraokeRoom
import Logging
import RoomProtocol
import ScoreStore

/// `karaoke serve`: one room — song library, queue, playback, browser views.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the room server: plays songs and serves the singer view, remote and display.",
        discussion: """
            Prints the URLs it listens on and the room PIN the host needs for the remote's controls.
            Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
            """)

    @Option(help: "Folder of song folders (default: $KARAOKE_SONGS or ./songs).")
    var songs: String = ProcessInfo.processInfo.environment["KARAOKE_SONGS"] ?? "songs"

    @Option(help: "Song id (its folder name) to load at start.")
    var song: String?

    @Option(help: "TCP port; 0 picks a free one.")
    var port: Int = 8080

    @Option(help: "Address to listen on (0.0.0.0 for every interface).")
    var host: String = "127.0.0.1"

    @Option(help: "Room PIN for host controls (4–8 digits; default: 6 random digits).")
    var pin: String?

    @Flag(help: "Play no audio and capture no microphone: keep time only (lyric screens for music played elsewhere).")
    var noAudio = false

    @Option(help: "Folder for the results database.")
    var scores: String = "scores"

    @Option(help: ArgumentHelp("Shared score store for a venue of rooms: postgres://user@host/db (docs/venue.md); default: <scores>/karaoke.sqlite.",
                               valueName: "URL"))
    var store: String?

    @Option(name: .customLong("room"), help: ArgumentHelp("This room's name, saved with its scores (default: the host name).", valueName: "NAME"))
    var roomName: String?

    @Option(name: .customLong("public"), help: "Folder with the browser pages (default: ./public, else next to the package).")
    var publicDirectory: String?

    @Option(help: ArgumentHelp("Microphone (PulseAudio source) to score (repeatable; default: the default source).", valueName: "SOURCE"))
    var mic: [String] = []

    @Option(help: "split: each channel of a source is a singer (a stereo source = a duet); mono: one singer per source.")
    var micChannels: MicChannels = .split

    @Option(help: ArgumentHelp("Singer name for the next microphone (repeatable; stored with the scores).", valueName: "NAME"))
    var singer: [String] = []

    @Option(help: ArgumentHelp("Mic delay in ms for singers with no calibration and no room setting (default 140).", valueName: "MS"))
    var micDelay: Double?

    @Flag(help: "Open no PulseAudio microphone: only phone singers (the singer page's \"Sing with this phone\") are scored.")
    var noMic = false

    @Flag(help: "Hear yourself: play every microphone through the speakers from the start (the remote switches it per singer).")
    var monitor = false

    @Option(help: ArgumentHelp("Mic monitoring delay in ms (PulseAudio module-loopback latency, 5…500; default 20).", valueName: "MS"))
    var monitorLatency: Double?

    @Option(name: .customLong("allow-origin"), help: "Extra browser origin allowed to connect (repeatable), e.g. http://tv.local:8080.")
    var allowedOrigins: [String] = []

    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "Another name browsers reach this server by (repeatable), e.g. karaoke.lan; requests for any other name are refused.",
        valueName: "NAME"))
    var allowedHosts: [String] = []

    @Flag(help: "Also serve the pages and the WebSocket over HTTPS/WSS on --tls-port (phones need it for their microphone; see docs/tls.md).")
    var tls = false

    @Option(help: ArgumentHelp("HTTPS port with --tls (0 picks a free one); plain HTTP stays on --port for display screens.", valueName: "N"))
    var tlsPort: Int = 8443

    @Option(help: ArgumentHelp("PEM certificate (chain) for --tls; default: a self-signed one kept in <scores>/tls/.", valueName: "FILE"))
    var cert: String?

    @Option(help: ArgumentHelp("PEM private key of --cert.", valueName: "FILE"))
    var key: String?

    /// TLS is on with `--tls`, and with a certificate of the host's own.
    private var tlsEnabled: Bool { tls || cert != nil }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard (0...65535).contains(tlsPort) else { throw ValidationError("--tls-port must be 0…65535") }
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together: give both, or neither for a self-signed certificate") }
        if tlsEnabled, tlsPort == port, port != 0 { throw ValidationError("--tls-port must differ from --port (plain HTTP stays on --port)") }
        if let pin, RoomPin(pin) == nil { throw ValidationError("--pin must be 4 to 8 digits") }
        if let micDelay, !(0...1000).contains(micDelay) { throw ValidationError("--mic-delay must be 0…1000 ms") }
        if let monitorLatency, !(5...500).contains(monitorLatency) { throw ValidationError("--monitor-latency must be 5…500 ms") }
        let monitorOption = monitor ? "--monitor" : monitorLatency != nil ? "--monitor-latency" : nil
        if let monitorOption, noAudio { throw ValidationError("\(monitorOption) needs audio: it cannot be combined with --no-audio") }
        if let monitorOption, noMic { throw ValidationError("\(monitorOption) needs a microphone: it cannot be combined with --no-mic") }
    }

    func run() async throws {
        let signals = TerminationSignals()
        var logger = Logger(label: "karaoke.serve")
        logger.logLevel = .info
        let roomPin = pin.flatMap(RoomPin.init) ?? RoomPin.random()
        let publicPath = try locatePublicDirectory()
        try FileManager.default.createDirectory(atPath: scores, withIntermediateDirectories: true)
        // Before anything plays: a database that cannot be opened or fails its check stops the server.
        let store = try await openStore(logger: logger)

        // The library index is cached beside the scores: a restart reads only changed song folders.
        let catalog = try DirectorySongCatalog(directory: songs, requireBackingTrack: !noAudio,
                                               cachePath: (scores as NSString).appendingPathComponent("library-index.json"))
        let player: any RoomPlayer
        if noAudio {
            player = ClockPlayer()
        } else {
            player = try AudioRoomPlayerFactory.make(logger: logger)
        }
        var roomOptions = Room.Options(pin: roomPin, audio: !noAudio)
        roomOptions.singerNames = singer
        roomOptions.indexLibraryInBackground = true
        let covers = CoverThumbnails(directory: (scores as NSString).appendingPathComponent("covers"))
        roomOptions.covers = covers
        roomOptions.keyMemoryPath = (scores as NSString).appendingPathComponent("key-memory.json")
        if tlsEnabled {
            // The PIN and host tokens travel only over TLS (docs/security.md).
            roomOptions.secretsOnlyOverTLS = true
            if tlsPort != 0 {
                roomOptions.secureRemoteURL = JoinAddress.choose(listenHost: host, plainPort: port, tlsPort: tlsPort,
                                                                 preferredName: allowedHosts.first).url
            }
        }
        var tlsSetup: TLSSetup.Prepared?
        if tlsEnabled {
            let joinHost = JoinAddress.choose(listenHost: host, plainPort: port, tlsPort: tlsPort,
                                              preferredName: allowedHosts.first).host
            do {
                tlsSetup = try TLSSetup.prepare(
                    port: tlsPort, certificate: cert, key: key, scoresDirectory: scores,
                    names: allowedHosts + (["", "0.0.0.0", "::"].contains(host) ? [] : [host]),
                    joinHost: joinHost, logger: logger)
            } catch {
                throw ValidationError("--tls: \(error)")
            }
        }
        roomOptions.certificate = tlsSetup?.notice
        let room = Room(player: player, catalog: catalog, options: roomOptions)
        if let engine = player as? PlaybackEngine {
            engine.onDeviceEvent = { [logger] event in
                logger.warning("audio: \(event)")
                room.publishDevice(DevicePayload(event))
            }
        }
        let underrunInterval = 2.0
        let underrunWatch = (player as? PlaybackEngine).map { engine in
            UnderrunWatch(engine: engine, interval: underrunInterval) { [logger] new, total in
                let times = new == 1 ? "once" : "\(new) times"
                logger.warning("audio: the speakers went silent \(times) in the last \(Int(underrunInterval)) s (\(total) since start): the playback buffer ran dry; the box is short of CPU (playback thread: \(engine.playbackThreadPriority))")
            }
        }
        defer { underrunWatch?.stop() }
        // The join QR code and address (`/join.svg`, `/join.txt`) are written once the port is bound.
        let joinFolder = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-join-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: joinFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: joinFolder) }
        var serverConfiguration = EventServerConfiguration(
            host: host, port: port, publicDirectory: publicPath,
            pageRoutes: ["/sing": "index.html", "/remote": "remote.html", "/display": "display.html", "/results": "results.html",
                          "/venue": "venue.html"],
            allowedOrigins: allowedOrigins,
            allowedHosts: HostAllowList.reachableNames(listenHost: host, extra: allowedHosts),
            tls: tlsSetup?.listener)
        // The venue's rooms and boards (`/venue`), rewritten by the heartbeat every few seconds.
        let venueFile = joinFolder + "/venue.json"
        VenueHeartbeat.write(.empty(servedBy: store.room), to: venueFile, logger: logger)
        serverConfiguration.fileRoutes = ["/join.svg": joinFolder + "/join.svg", "/join.txt": joinFolder + "/join.txt",
                                          "/venue.json": venueFile]
        serverConfiguration.generatedRoutes = [CoverThumbnails.mountpoint: covers]
        let server = EventServer(configuration: serverConfiguration)
        store.writeQueue.report(to: room, logger: logger)
        // No live session in --no-audio mode (nothing plays, so there is no clock to sing against).
        var live: LiveScoringFactory.Live?
        let output = ProcessInfo.processInfo.environment["KARAOKE_OUTPUT"].flatMap { $0.isEmpty ? nil : $0 }
        if let engine = player as? PlaybackEngine {
            var options = LiveRoomSession.Options()
            options.calibrationPath = (scores as NSString).appendingPathComponent("calibration.json")
            options.output = output
            if let micDelay { options.defaultMicDelay = micDelay / 1000 }
            do {
                live = try LiveScoringFactory.make(sources: mic, channels: micChannels, pulse: !noMic, engine: engine, room: room,
                                                   server: server, store: store as (any ScoreStore)?, options: options, logger: logger)
            } catch {
                logger.warning("\(error); the room plays without scoring (--no-mic to silence this)")
            }
        }
        // Monitoring follows the microphones live scoring opened, on the backing track's sink.
        let monitoring = live.flatMap {
            MicMonitoringFactory.make(sources: $0.sources, sink: output, latencyMs: monitorLatency ?? 20, logger: logger)
        }
        room.start(transport: server, liveSession: live?.session, leaderboard: StoreLeaderboard(store: store),
                   monitoring: monitoring)
        // The library is read in the background; the room logs its songs' problems once read.
        if let song {
            do { try room.load(songId: song) } catch let error as CustomStringConvertible {
                throw ValidationError("--song \(song): \(error)")
            }
        }
        do {
            try server.start(delegate: live?.phones ?? room.connectionHandler)
        } catch {
            room.shutdown()
            throw ValidationError("\(error)")
        }

        let bound = server.port
        print("karaoke: room \"\(room.options.name)\" with the songs of \(songs)\(noAudio ? " (no audio)" : "")")
        if let live, !noMic { print("  scoring \(live.sources.count) singer(s) from \(mic.isEmpty ? "the default source" : mic.joined(separator: ", ")) and up to \(PhoneSeats.maxPhones) phones") }
        if let engine = player as? PlaybackEngine {
            for line in LatencyLines.lines(engine: engine, output: output, live: live) { print("  \(line)") }
        }
        if monitor {
            // After the server started: no early exit can leave a loopback behind.
            let failures = monitoring?.setAll(on: true) ?? ["no microphone to monitor"]
            for failure in failures { logger.warning("mic monitoring: \(failure)") }
            if failures.isEmpty { print("  monitoring every microphone on \(output ?? "the default sink") (hear yourself)") }
        }
        let boundTLS = server.tlsPort
        for url in ListenAddresses.urls(host: host, port: bound) {
            print("  singer view  \(url)/")
            print("  remote       \(url)/remote")
            print("  display      \(url)/display")
        }
        if let boundTLS, let tlsSetup {
            for url in ListenAddresses.urls(host: host, port: boundTLS, scheme: "https") {
                print("  singer view  \(url)/")
                print("  remote       \(url)/remote")
            }
            print("  certificate  \(tlsSetup.summary)")
            print("  fingerprint  SHA-256 \(tlsSetup.notice.fingerprint)")
        }
        let join = JoinAddress.choose(listenHost: host, plainPort: bound, tlsPort: boundTLS, preferredName: allowedHosts.first)
        print("  join         \(join.url)")
        do { try JoinCode.write(url: join.url, to: joinFolder) } catch {
            logger.warning("join code: \(error); the display shows no QR code")
        }
        let venue = VenueHeartbeat(store: store, room: room, name: store.room, joinURL: join.url, file: venueFile, logger: logger)
        print("  venue        \(join.origin)/venue (room \(store.room))")
        print("Room PIN: \(roomPin)")
        // The PIN rides in the fragment, which browsers never send to the server (or its logs).
        print("  host remote  \(join.origin)/remote#pin=\(roomPin)")
        if roomPin.digits.count < RoomPin.defaultLength {
            logger.warning("a \(roomPin.digits.count)-digit PIN is easy to guess; use \(RoomPin.defaultLength) or more digits")
        }
        signals.running()
        if let boundTLS { print("Listening on TLS port \(boundTLS)") }
        print("Listening on port \(bound)")
        fflush(nil)

        await signals.wait()
        print("karaoke: stopping")
        fflush(nil)
        venue.stop()
        server.stop()
        monitoring?.close()
        live?.close()
        room.shutdown()
        // Lines still held back get a last chance, then are listed in the log rather than vanish.
        await store.writeQueue.close(timeout: 5)
        let stats = server.statistics
        let median = stats.deliveries.quantile(0.5).map { "\($0)" } ?? "-"
        let p99 = stats.deliveries.quantile(0.99).map { "\($0)" } ?? "-"
        print("karaoke: \(stats.totalConnections) connection(s); \(stats.deliveries.count) messages written, "
              + "encode-to-socket delay median \(median) ms, p99 \(p99) ms; \(stats.droppedMessages) pitch frames dropped, "
              + "\(stats.slowClientCloses) slow client(s) disconnected")
        fflush(nil)
    }

    /// The score store in `--scores`. A database that cannot be opened or is damaged stops
    /// `serve` (it is never overwritten): scoring songs into nowhere would lose every result.
    /// A PostgreSQL store that cannot be reached does not stop it: scores wait in memory and in
    /// `<scores>/spool` (see `--store`), and a spool left by a killed room is replayed here.
    private func openStore(logger: Logger) async throws -> any ScoreStore {
        let path = store ?? (scores as NSString).appendingPathComponent("karaoke.sqlite")
        do {
            let opened = try ScoreStoreOpening.open(path, room: roomName ?? ScoreStoreOpening.defaultRoom)
            guard let shared = opened as? PostgresScoreStore else { return opened }
            // Lines held back while PostgreSQL is down also go to disk, so a killed room keeps them.
            let spool = (scores as NSString).appendingPathComponent("spool")
            let adoption = try shared.writeQueue.attachSpool(directory: spool)
            if adoption.files > 0 {
                let skipped = adoption.unreadable > 0 ? " (\(adoption.unreadable) entry(ies) cut short, skipped)" : ""
                logger.notice("scores: replaying \(adoption.lines) line(s) of \(adoption.runs) run(s) left in \(adoption.files) spool file(s) by a room that stopped before storing them\(skipped)")
            }
            for file in adoption.foreignFiles {
                logger.warning("scores: \(file) holds writes for another store; left there (start a room with that --store and --scores to store them)")
            }
            if let problem = await shared.checkConnection() {
                logger.warning("scores delayed: \(problem) The room starts anyway; scores are kept in memory and in \(spool) and written when PostgreSQL is back.")
            }
            return opened
        } catch {
            throw ValidationError("\(error) Start with --scores DIR to keep results in another folder.")
        }
    }

    /// `--public`, else ./public, else `public/` beside the package the binary was built in.
    private func locatePublicDirectory() throws -> String {
        let manager = FileManager.default
        if let publicDirectory {
            guard manager.fileExists(atPath: publicDirectory + "/index.html") else {
                throw ValidationError("--public \(publicDirectory): no index.html there")
            }
            return publicDirectory
        }
        if manager.fileExists(atPath: "public/index.html") { return "public" }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = url.appendingPathComponent("public")
            if manager.fileExists(atPath: candidate.path + "/index.html") { return candidate.path }
            url.deleteLastPathComponent()
        }
        throw ValidationError("cannot find the browser pages: run from the repository root or pass --public DIR")
    }
}
