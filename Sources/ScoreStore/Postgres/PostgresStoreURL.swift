import Foundation

/// A `--store postgres://user[:password]@host[:port]/database[?host=/socket/dir&schema=name&sslmode=mode]`
/// address. `host=` (as libpq reads it) or a percent-encoded host starting with `/` names the
/// directory of a unix socket (`.s.PGSQL.<port>` in it); `schema=` keeps a venue's tables in
/// their own schema (default `public`); `sslmode=` is libpq's (`disable`, `allow`, `prefer` — the
/// default —, `require`, `verify-ca`, `verify-full`), TLS through the system's OpenSSL.
public struct PostgresStoreURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    /// A TCP host, or nil when `socketPath` is used.
    public var host: String?
    public var port: Int
    public var socketPath: String?
    public var database: String
    public var schema: String
    /// libpq's `sslmode`, or nil for its default (`prefer`: TLS when the server offers it).
    public var sslMode: String?

    static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

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
        sslMode = query.first { $0.name == "sslmode" }?.value
        if let sslMode, !Self.sslModes.contains(sslMode) {
            throw bad("sslmode must be one of \(Self.sslModes.joined(separator: ", ")) (got \"\(sslMode)\")")
        }
        for item in query where !["schema", "host", "sslmode"].contains(item.name) {
            throw bad("unknown parameter \"\(item.name)\" (known: host, schema, sslmode)")
        }
    }

    /// The address without its password, for messages and logs.
    public var description: String {
        var query = socketPath.map { ["host=" + ($0 as NSString).deletingLastPathComponent] } ?? []
        if schema != "public" { query.append("schema=\(schema)") }
        if let sslMode { query.append("sslmode=\(sslMode)") }
        let hostPart = host.map { "\($0):\(port)" } ?? ""
        return "postgres://\(user)@\(hostPart)/\(database)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// What libpq is given (`PQconnectdbParams`; nothing is read from the address text again).
    var connectionParameters: [(key: String, value: String)] {
        var parameters: [(key: String, value: String)] = [
            ("host", socketPath.map { ($0 as NSString).deletingLastPathComponent } ?? host ?? "localhost"),
            ("port", String(port)), ("user", user), ("dbname", database),
            // A room must not wait long on a database that is down: it spools and retries instead.
            ("connect_timeout", "3"),
            // A peer that vanished without closing (a dropped network) is noticed in seconds, not hours.
            ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "10000"),
            // The text forms `PostgresTimestamp` reads; the server's NOTICEs ("schema already
            // exists, skipping") are not for the room's log.
            ("options", "-c DateStyle=ISO,YMD -c TimeZone=UTC -c client_min_messages=warning"),
            ("application_name", "karaoke"),
        ]
        if let password { parameters.append(("password", password)) }
        if let sslMode { parameters.append(("sslmode", sslMode)) }
        return parameters
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
