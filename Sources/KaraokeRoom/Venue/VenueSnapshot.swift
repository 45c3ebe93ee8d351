import Foundation
import ScoreStore

/// What `/venue` shows (served as `/venue.json`): the live rooms of the venue and its
/// leaderboards, read from the shared store. Singers are one person across rooms by name
/// (compared without case or surrounding spaces).
public struct VenueSnapshot: Codable, Sendable, Equatable {
    public struct RoomEntry: Codable, Sendable, Equatable {
        public var name: String
        public var joinURL: String
        public var nowPlaying: String?
        public var busy: Bool
        public var secondsSinceHeartbeat: Int
    }

    public struct Entry: Codable, Sendable, Equatable {
        public var singer: String
        public var songId: String
        public var songTitle: String
        public var score: Int
        public var room: String?
        public var finishedAt: String?
    }

    public struct SingerEntry: Codable, Sendable, Equatable {
        public var singer: String
        public var best: Int
        public var bestSong: String
        /// Complete runs among those read (the best `VenueSnapshot.depth`).
        public var runs: Int
        public var rooms: [String]
    }

    public var generatedAt: String
    /// The room that wrote this snapshot.
    public var servedBy: String
    /// Whether the store could be read: when false the lists are what was last known (empty at start).
    public var storeReachable: Bool
    public var rooms: [RoomEntry]
    /// Best complete runs of all time, of the last 7 days, best run per song, and best per singer.
    public var best: [Entry]
    public var thisWeek: [Entry]
    public var songs: [Entry]
    public var singers: [SingerEntry]

    /// Rows read for the per-song and per-singer boards.
    static let depth = 500
    /// A room is live when its heartbeat is at most this old.
    public static let liveWindow: TimeInterval = 30

    public static func empty(servedBy: String, now: Date = Date()) -> VenueSnapshot {
        VenueSnapshot(generatedAt: ISO8601DateFormatter().string(from: now), servedBy: servedBy, storeReachable: false,
                      rooms: [], best: [], thisWeek: [], songs: [], singers: [])
    }

    /// Reads the venue from `store`: rooms seen within `liveWindow`, and the boards (`limit` rows each).
    public static func read(from store: any ScoreStore, servedBy: String, now: Date = Date(),
                            limit: Int = 10) async throws(ScoreStoreError) -> VenueSnapshot {
        let formatter = ISO8601DateFormatter()
        let rooms = try await store.rooms(seenSince: now.addingTimeInterval(-liveWindow)).map { room in
            RoomEntry(name: room.name, joinURL: room.joinURL, nowPlaying: room.nowPlaying, busy: room.busy,
                      secondsSinceHeartbeat: max(0, Int(now.timeIntervalSince(room.heartbeatAt).rounded())))
        }
        func entry(_ row: PerformanceRecord) -> Entry {
            Entry(singer: row.singer, songId: row.songId, songTitle: row.songTitle, score: row.total, room: row.room,
                  finishedAt: row.finishedAt.map { formatter.string(from: $0) })
        }
        let deep = try await store.leaderboard(songId: nil, difficulty: nil, since: nil, limit: depth)
        let week = try await store.leaderboard(songId: nil, difficulty: nil, since: now.addingTimeInterval(-7 * 86400), limit: limit)
        var seenSongs = Set<String>()
        let songs = deep.filter { seenSongs.insert($0.songId).inserted }.prefix(limit).map(entry)
        // `deep` is best first, so each singer's first row is their best.
        var singers: [String: SingerEntry] = [:]
        var order: [String] = []
        for row in deep {
            let key = row.singer.trimmingCharacters(in: .whitespaces).lowercased()
            if singers[key] == nil {
                order.append(key)
                singers[key] = SingerEntry(singer: row.singer.trimmingCharacters(in: .whitespaces), best: row.total,
                                           bestSong: row.songTitle, runs: 0, rooms: [])
            }
            singers[key]!.runs += 1
            if let room = row.room, !room.isEmpty, !singers[key]!.rooms.contains(room) { singers[key]!.rooms.append(room) }
        }
        return VenueSnapshot(
            generatedAt: formatter.string(from: now), servedBy: servedBy, storeReachable: true, rooms: rooms,
            best: deep.prefix(limit).map(entry), thisWeek: week.map(entry), songs: Array(songs),
            singers: order.prefix(limit).compactMap { singers[$0] })
    }
}
