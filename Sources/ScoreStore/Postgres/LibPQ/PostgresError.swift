/// A failure reported by libpq or by the server, with the server's SQLSTATE when it sent one.
struct PostgresError: Error, Sendable, CustomStringConvertible {
    var message: String
    var sqlState: String?
    /// The connection cannot be used any more: drop it and connect anew.
    var connectionLost: Bool

    init(message: String, sqlState: String? = nil, connectionLost: Bool = false) {
        self.message = message
        self.sqlState = sqlState
        self.connectionLost = connectionLost
    }

    var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }
}
