import Foundation
import PostgresNIO

/// A `--store postgres://user[:password]@host[:port]/database[?host=/socket/dir&schema=name]`
/// address. `host=` (as libpq reads it) or a percent-encoded host starting with `/` names the
/// directory of a unix socket (`.s.PGSQL.<port>` in it); `schema=` keeps a venue's tables in
/// their own schema (default `public`). TLS is not offered: use it on a trusted network or a socket.
public struct PostgresStoreURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    /// A TCP host, or nil when `socketPath` is used.
    public var host: String?
    public var port: Int
    public var socketPath: String?
    public var database: String
    public var schema: String

    /// Whether `text` asks for PostgreSQL rather than a SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(_ text: String) throws(ScoreStoreError) {
        func bad(_ why: String) -> ScoreStoreError {
            .cannotOpen(path: Self.redacted(text), detail: "not a usable postgres:// address: \(why)")
        }
        guard Self.isPostgres(text), let parts = URLComponents(string: text) else {
            throw bad("expected postgres://user@host/database")
        }
        guard let user = parts.user, !user.isEmpty else { throw bad("no user name (postgres://USER@host/database)") }
        self.user = user
        password = parts.password
        port = parts.port ?? 5432
        let name = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        guard !name.isEmpty, !name.contains("/") else { throw bad("no database name (postgres://user@host/DATABASE)") }
        database = name
        let query = parts.queryItems ?? []
        schema = query.first { $0.name == "schema" }?.value ?? "public"
        guard Self.isPlainIdentifier(schema) else {
            throw bad("schema must be lower-case letters, digits and _ (got \"\(schema)\")")
        }
        let hostParameter = query.first { $0.name == "host" }?.value
        let urlHost = parts.percentEncodedHost.flatMap { $0.removingPercentEncoding }
        if let directory = [hostParameter, urlHost].compactMap({ $0 }).first(where: { $0.hasPrefix("/") }) {
            socketPath = (directory as NSString).appendingPathComponent(".s.PGSQL.\(port)")
            host = nil
        } else if let urlHost, !urlHost.isEmpty {
            host = urlHost
            socketPath = nil
        } else {
            throw bad("no host (postgres://user@HOST/database, or ?host=/socket/directory)")
        }
        for item in query where !["schema", "host"].contains(item.name) {
            throw bad("unknown parameter \"\(item.name)\" (known: host, schema)")
        }
    }

    /// The address without its password, for messages and logs.
    public var description: String {
        let place = socketPath.map { "?host=" + ($0 as NSString).deletingLastPathComponent } ?? ""
        let hostPart = host.map { "\($0):\(port)" } ?? ""
        let schemaPart = schema == "public" ? "" : (place.isEmpty ? "?" : "&") + "schema=\(schema)"
        return "postgres://\(user)@\(hostPart)/\(database)\(place)\(schemaPart)"
    }

    var configuration: PostgresConnection.Configuration {
        var configuration = if let socketPath {
            PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            PostgresConnection.Configuration(host: host ?? "localhost", port: port, username: user, password: password,
                                             database: database, tls: .disable)
        }
        // A room must not wait long on a database that is down: it spools and retries instead.
        configuration.options.connectTimeout = .seconds(3)
        return configuration
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || ("a"..."z").contains(first), name.count <= 63 else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// `text` with any password replaced, for an error about an address that did not parse.
    static func redacted(_ text: String) -> String {
        guard var parts = URLComponents(string: text), parts.password != nil else { return text }
        parts.password = "***"
        return parts.string ?? text
    }
}
