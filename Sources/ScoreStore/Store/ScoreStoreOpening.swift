import Foundation
import Logging

/// Opens the store a command line names: a `postgres://` address is the venue's shared
/// PostgreSQL; anything else is a SQLite file path.
public enum ScoreStoreOpening {
    public static func open(_ address: String, room: String, readOnly: Bool = false,
                            logger: Logger = Logger(label: "karaoke.store")) throws(ScoreStoreError) -> any ScoreStore {
        if PostgresStoreURL.isPostgres(address) {
            return PostgresScoreStore(url: try PostgresStoreURL(address), room: room, logger: logger)
        }
        return try SQLiteScoreStore(path: address, readOnly: readOnly, room: room)
    }

    /// The room name when none is given: this machine's host name (without its domain).
    public static var defaultRoom: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "room" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: ".").first.map(String.init) ?? "room"
    }
}
