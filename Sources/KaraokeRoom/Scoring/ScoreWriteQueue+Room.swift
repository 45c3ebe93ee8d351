import Logging
import ScoreStore

extension ScoreWriteQueue {
    /// Sends what the queue reports to the log and, as `error` events (`store-write-failed`,
    /// `store-write-recovered`, `store-write-dropped`, `store-write-spooled`, `store-spool-failed`,
    /// `store-spool-recovered`), to the room's host clients; a failure still going on is also
    /// told to each client that becomes host until it is recovered.
    public func report(to room: Room, logger: Logger) {
        setReporter { report in
            switch report {
            case .recovered, .spoolRecovered: logger.notice("scores: \(report)")
            default: logger.error("scores: \(report)")
            }
            switch report {
            // Standing until recovered: a host who signs in meanwhile hears them too.
            case .failing: room.reportStandingFault(code: report.code, message: report.description, until: "store-write-recovered")
            case .spoolFailing: room.reportStandingFault(code: report.code, message: report.description, until: "store-spool-recovered")
            default: room.reportToHosts(code: report.code, message: report.description)
            }
        }
    }
}
