import EventServer
import Foundation
import KaraokeRoom
import Logging
import Scoring
import ScoreStore
import Testing

/// What `/venue.json` says: live rooms and the venue-wide boards, singers merged across rooms by name.
@Suite struct VenueSnapshotTests {
    let path = NSTemporaryDirectory() + "venue-\(UUID().uuidString)/karaoke.sqlite"

    func sing(_ store: SQLiteScoreStore, _ songId: String, _ singer: String, _ total: Int, daysAgo: Double) async throws {
        let id = try await store.begin(PerformanceStart(songId: songId, songTitle: "Title \(songId)", singer: singer, part: 0,
                                                        configuration: ScoringConfiguration(), basis: .notes))
        try await store.finish(id, total: total, at: Date().addingTimeInterval(-daysAgo * 86400))
    }

    @Test func roomsAndBoards() async throws {
        let blue = try SQLiteScoreStore(path: path, room: "Blue")
        let red = try SQLiteScoreStore(path: path, room: "Red")
        try await sing(blue, "a", "Ana", 8000, daysAgo: 30)
        try await sing(red, "a", "ana ", 6000, daysAgo: 1)
        try await sing(red, "b", "Bo", 7000, daysAgo: 2)
        try await sing(blue, "b", "Cy", 5000, daysAgo: 0)
        let now = Date()
        try await blue.announce(RoomPresence(name: "Blue", joinURL: "http://b/remote", nowPlaying: nil, busy: false, heartbeatAt: now))
        try await red.announce(RoomPresence(name: "Red", joinURL: "http://r/remote", nowPlaying: "x", busy: true,
                                            heartbeatAt: now.addingTimeInterval(-VenueSnapshot.liveWindow - 5)))

        let venue = try await VenueSnapshot.read(from: blue, servedBy: "Blue", now: now)
        #expect(venue.rooms.map(\.name) == ["Blue"], "Red's heartbeat is older than the live window")
        #expect(venue.storeReachable)
        #expect(venue.best.map(\.score) == [8000, 7000, 6000, 5000])
        #expect(venue.thisWeek.map(\.singer) == ["Bo", "ana ", "Cy"])
        #expect(venue.songs.map(\.songId) == ["a", "b"])
        #expect(venue.songs.map(\.score) == [8000, 7000])
        #expect(venue.singers.map(\.singer) == ["Ana", "Bo", "Cy"])
        #expect(venue.singers.first?.runs == 2)
        #expect(venue.singers.first?.rooms == ["Blue", "Red"])
        #expect(venue.best.first?.room == "Blue")
    }

    @Test func theHeartbeatAnnouncesTheRoomAndWritesTheFile() async throws {
        let store = try SQLiteScoreStore(path: path, room: "Blue")
        let file = (path as NSString).deletingLastPathComponent + "/venue.json"
        let room = Room(player: ClockPlayer(), catalog: TestSong.catalog, options: .init(pin: RoomPin("123456")!, audio: false))
        let heartbeat = VenueHeartbeat(store: store, room: room, name: "Blue", joinURL: "http://127.0.0.1:1/remote",
                                       file: file, interval: 0.1, logger: Logger(label: "test"))
        defer { heartbeat.stop() }
        var snapshot: VenueSnapshot?
        for _ in 0..<100 where snapshot?.rooms.isEmpty ?? true {
            try await Task.sleep(for: .milliseconds(50))
            snapshot = (try? Data(contentsOf: URL(fileURLWithPath: file))).flatMap { try? JSONDecoder().decode(VenueSnapshot.self, from: $0) }
        }
        #expect(snapshot?.rooms.map(\.name) == ["Blue"])
        #expect(snapshot?.rooms.first?.busy == false)
        #expect(snapshot?.rooms.first?.joinURL == "http://127.0.0.1:1/remote")
    }
}
