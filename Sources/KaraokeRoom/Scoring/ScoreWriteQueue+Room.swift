import Logging
import ScoreStore

extension ScoreWriteQueue {
    /// Sends what the queue reports to the log and, as `error` events (`store-write-failed`,
    /// `store-write-recovered`, `store-write-dropped`, `store-write-spooled`, `store-spool-failed`,
    /// `store-spool-recovered`), to the room's host clients.
    public func report(to room: Room, logger: Logger) {
        setReporter { report in
            switch report {
            case .recovered, .spoolRecovered: logger.notice("scores: \(report)")
            default: logger.error("scores: \(report)")
            }
            room.reportToHosts(code: report.code, message: report.description)
        }
    }
}
