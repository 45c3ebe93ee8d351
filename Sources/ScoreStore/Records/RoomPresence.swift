import Foundation
import GRDB

/// One row of `venueRoom`: a room of the venue as it last announced itself (every few seconds
/// while it runs). A room whose heartbeat is old has stopped or lost the database.
public struct RoomPresence: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "venueRoom"

    public var name: String
    /// Where guests join it (the URL `serve` prints as `join`).
    public var joinURL: String
    /// Title and artist of the song loaded, if any.
    public var nowPlaying: String?
    /// Busy while a song plays; free otherwise.
    public var busy: Bool
    public var heartbeatAt: Date

    public init(name: String, joinURL: String, nowPlaying: String?, busy: Bool, heartbeatAt: Date) {
        self.name = name
        self.joinURL = joinURL
        self.nowPlaying = nowPlaying
        self.busy = busy
        self.heartbeatAt = heartbeatAt
    }
}
