import ArgumentParser
import Dispatch
import EventServer
import Foundation
import KaraokeRoom
import Logging

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

    @Option(help: "Room PIN for host controls (4–8 digits; default: random).")
    var pin: String?

    @Flag(help: "Play no audio and capture no microphone: keep time only (lyric screens for music played elsewhere).")
    var noAudio = false

    @Option(help: "Folder for the results database.")
    var scores: String = "scores"

    @Option(name: .customLong("public"), help: "Folder with the browser pages (default: ./public, else next to the package).")
    var publicDirectory: String?

    @Option(name: .customLong("allow-origin"), help: "Extra browser origin allowed to connect (repeatable), e.g. http://tv.local:8080.")
    var allowedOrigins: [String] = []

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        if let pin, RoomPin(pin) == nil { throw ValidationError("--pin must be 4 to 8 digits") }
    }

    func run() async throws {
        var logger = Logger(label: "karaoke.serve")
        logger.logLevel = .info
        let roomPin = pin.flatMap(RoomPin.init) ?? RoomPin.random()
        let publicPath = try locatePublicDirectory()
        try FileManager.default.createDirectory(atPath: scores, withIntermediateDirectories: true)

        let catalog = try DirectorySongCatalog(directory: songs, requireBackingTrack: !noAudio)
        let player: any RoomPlayer
        if noAudio {
            player = ClockPlayer()
        } else {
            player = try AudioRoomPlayerFactory.make(logger: logger)
        }
        let room = Room(player: player, catalog: catalog, options: .init(pin: roomPin, audio: !noAudio))
        let server = EventServer(configuration: EventServerConfiguration(
            host: host, port: port, publicDirectory: publicPath,
            pageRoutes: ["/sing": "index.html", "/remote": "remote.html", "/display": "display.html", "/results": "results.html"],
            allowedOrigins: allowedOrigins))
        room.start(transport: server)
        for summary in room.library where summary.error != nil {
            logger.warning("song \(summary.id): \(summary.error ?? "")")
        }
        if let song {
            do { try room.load(songId: song) } catch let error as CustomStringConvertible {
                throw ValidationError("--song \(song): \(error)")
            }
        }
        do {
            try server.start(delegate: room.connectionHandler)
        } catch {
            room.shutdown()
            throw ValidationError("\(error)")
        }

        let bound = server.port
        print("karaoke: room \"\(room.options.name)\" with \(room.library.count) song(s) from \(songs)\(noAudio ? " (no audio)" : "")")
        for url in ListenAddresses.urls(host: host, port: bound) {
            print("  singer view  \(url)/")
            print("  remote       \(url)/remote")
            print("  display      \(url)/display")
        }
        print("Room PIN: \(roomPin)")
        print("Listening on port \(bound)")
        fflush(nil)

        await SignalWaiter.waitForTermination()
        print("karaoke: stopping")
        fflush(nil)
        server.stop()
        room.shutdown()
        let stats = server.statistics
        let median = stats.deliveries.quantile(0.5).map { "\($0)" } ?? "-"
        let p99 = stats.deliveries.quantile(0.99).map { "\($0)" } ?? "-"
        print("karaoke: \(stats.totalConnections) connection(s); \(stats.deliveries.count) messages written, "
              + "encode-to-socket delay median \(median) ms, p99 \(p99) ms; \(stats.droppedMessages) pitch frames dropped, "
              + "\(stats.slowClientCloses) slow client(s) disconnected")
        fflush(nil)
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
