import Logging
import ScoreStore

extension ScoreWriteQueue {
    /// Sends what the queue reports to the log and, as `error` events (`store-write-failed`,
    /// `store-write-recovered`, `store-write-dropped`), to the room's host clients.
    public func report(to room: Room, logger: Logger) {
        setReporter { report in
            if case .recovered = report { logger.notice("scores: \(report)") } else { logger.error("scores: \(report)") }
            room.reportToHosts(code: report.code, message: report.description)
        }
    }
}
