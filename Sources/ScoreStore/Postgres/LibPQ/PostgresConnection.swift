import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq. libpq's calls block, so a connection is only
/// used on its store's own serial executor (`PostgresStoreExecutor`), never on the
/// cooperative pool, and by one caller at a time.
final class PostgresConnection {
    private let handle: OpaquePointer

    /// Connects and waits for the server's answer (at most the address's `connect_timeout`).
    init(_ url: PostgresStoreURL) throws(PostgresError) {
        let parameters = url.connectionParameters
        let keys = parameters.map { strdup($0.key) }, values = parameters.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        let keyPointers = keys.map { UnsafePointer($0) } + [nil]
        let valuePointers = values.map { UnsafePointer($0) } + [nil]
        guard let made = PQconnectdbParams(keyPointers, valuePointers, 0) else {
            throw PostgresError(message: "libpq could not allocate a connection", connectionLost: true)
        }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(made))
            PQfinish(made)
            throw PostgresError(message: message, connectionLost: true)
        }
        handle = made
    }

    deinit { PQfinish(handle) }

    /// Whether the connection can no longer be used (the server went away or closed it).
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Runs one statement with its parameters sent apart from the SQL (never spliced into it).
    @discardableResult
    func execute(_ query: PostgresQuery) throws(PostgresError) -> [PostgresRow] {
        let texts = query.parameters.map { $0.text.map { strdup($0) } ?? nil }
        defer { texts.forEach { free($0) } }
        let types = query.parameters.map(\.type)
        let values = texts.map { UnsafePointer($0) }
        guard let result = PQexecParams(handle, query.sql, Int32(types.count), types, values, nil, nil, 0) else {
            throw PostgresError(message: Self.message(PQerrorMessage(handle)), connectionLost: isBroken)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return PostgresRow.rows(of: result)
        default:
            let field = { (code: Character) in PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) } }
            let message = field("M") ?? Self.message(PQresultErrorMessage(result))
            let state = field("C")
            // Class 08 is a connection exception, 57 an administrator's shutdown: the next
            // statement on this connection would fail the same way.
            let lost = isBroken || state.map { $0.hasPrefix("08") || $0.hasPrefix("57") } == true
            throw PostgresError(message: message, sqlState: state, connectionLost: lost)
        }
    }

    /// Runs `body` inside BEGIN … COMMIT, rolled back if it throws.
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body(self)
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// libpq's messages end with a newline; some span lines.
    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        let message = text.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return message.isEmpty ? "no message from libpq" : message.replacingOccurrences(of: "\n", with: "; ")
    }
}
