import EventServer
import Foundation
import KaraokeRoom

/// A room on a kernel-chosen port with a temporary `public/` directory. Stop it with `stop()`.
final class TestRoomServer {
    static let pin = "4321"
    let server: EventServer
    let room: Room
    /// The room's player when none was passed in.
    let player: ClockPlayer
    let root: URL
    var port: Int { server.port }

    init(queueLimits: OutboundQueue.Limits = .init(), rateLimit: RateLimiter.Limits = .init(),
         allowedOrigins: [String] = [], loadSong: Bool = true,
         leaderboard: (any RoomLeaderboard)? = nil, monitoring: SingerMonitoring? = nil,
         liveSession: (any RoomLiveSession)? = nil,
         roomPlayer: (any RoomPlayer)? = nil, catalog: any SongCatalog = TestSong.catalog,
         generatedRoutes: [String: any GeneratedFileSource] = [:],
         configure: (inout Room.Options) -> Void = { _ in }) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-es-\(UUID().uuidString)")
        let publicDir = root.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: publicDir.appendingPathComponent("js"), withIntermediateDirectories: true)
        let files = [
            "index.html": "<!doctype html><title>sing</title>",
            "remote.html": "<!doctype html><title>remote</title>",
            "js/app.js": "console.log('hi')",
            "style.css": "body{}",
            "site.webmanifest": "{}",
            "module.mjs": "export {}",
        ]
        for (name, text) in files { try text.write(to: publicDir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        try "top secret".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)

        player = ClockPlayer()
        var options = Room.Options(pin: RoomPin(Self.pin)!, audio: false, tickInterval: 0.02, stateInterval: 0.5)
        configure(&options)
        room = Room(player: roomPlayer ?? player, catalog: catalog, options: options)
        var configuration = EventServerConfiguration(
            host: "127.0.0.1", port: 0, publicDirectory: publicDir.path, pageRoutes: ["/remote": "remote.html"],
            allowedOrigins: allowedOrigins, rateLimit: rateLimit, queueLimits: queueLimits,
            // A test client that waits on others without reading (a display checked only at the
            // end) answers no ping meanwhile; on a loaded CI box that can exceed the server's
            // 30 + 30 s idle allowance. These tests are not about idle sockets (test_security.py is).
            idlePingSeconds: 600)
        configuration.generatedRoutes = generatedRoutes
        server = EventServer(configuration: configuration)
        room.start(transport: server, liveSession: liveSession, leaderboard: leaderboard, monitoring: monitoring)
        if loadSong { try room.load(songId: "test") }
        try server.start(delegate: room.connectionHandler)
    }

    func stop() {
        server.stop()
        room.shutdown()
        try? FileManager.default.removeItem(at: root)
    }

    /// A connected client that has read its initial `hello` (and asked for `role`).
    func client(role: String = "display", pin: String? = nil, origin: String? = nil) throws -> WebSocketTestClient {
        let client = try WebSocketTestClient(port: port, origin: origin)
        guard try client.waitFor("hello") != nil else { throw TestSocket.Failure(what: "no hello") }
        if role != "display" {
            let pinField = pin.map { ",\"pin\":\"\($0)\"" } ?? ""
            try client.sendText("{\"type\":\"hello\",\"role\":\"\(role)\"\(pinField)}")
        }
        return client
    }
}
