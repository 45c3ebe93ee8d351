import Foundation
import Logging
import ScoreStore

/// Keeps this room listed in the venue: every `interval` seconds it announces the room (name,
/// join URL, what is playing, free/busy) to the store and writes the venue snapshot to `file`,
/// which the server serves as `/venue.json`. A store that cannot be reached is logged once per
/// outage; the file then says `storeReachable: false` and keeps the last rooms and boards.
public final class VenueHeartbeat: Sendable {
    private let task: Task<Void, Never>

    public init(store: any ScoreStore, room: Room, name: String, joinURL: String, file: String,
                interval: Double = 5, logger: Logger) {
        task = Task.detached {
            var failing = false
            var last = VenueSnapshot.empty(servedBy: name)
            while !Task.isCancelled {
                let now = Date()
                let (nowPlaying, busy) = room.presence
                do throws(ScoreStoreError) {
                    try await store.announce(RoomPresence(name: name, joinURL: joinURL, nowPlaying: nowPlaying,
                                                          busy: busy, heartbeatAt: now))
                    last = try await VenueSnapshot.read(from: store, servedBy: name, now: now)
                    if failing { logger.notice("venue: the store answers again; this room is listed") }
                    failing = false
                } catch {
                    if !failing { logger.warning("venue: cannot reach the store, this room is not listed: \(error)") }
                    failing = true
                    last.storeReachable = false
                    last.generatedAt = ISO8601DateFormatter().string(from: now)
                }
                Self.write(last, to: file, logger: logger)
                try? await Task.sleep(for: .seconds(interval))
            }
        }
    }

    public func stop() { task.cancel() }

    /// Written beside and renamed over, so the server never sends half a file.
    public static func write(_ snapshot: VenueSnapshot, to file: String, logger: Logger) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let data = try encoder.encode(snapshot)
            let temporary = file + ".tmp"
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, file) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            logger.warning("venue: cannot write \(file): \(error)")
        }
    }
}
