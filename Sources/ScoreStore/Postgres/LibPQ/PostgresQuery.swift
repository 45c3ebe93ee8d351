import CLibPQ
import Foundation

/// A statement and its parameters. Interpolated values become `$1`, `$2`, … and travel apart
/// from the SQL text, typed, so no value is ever read as SQL:
/// `"SELECT * FROM performance WHERE id = \(id)"`.
struct PostgresQuery: ExpressibleByStringInterpolation {
    var sql: String
    var parameters: [PostgresParameter]

    /// SQL built at run time; any values it refers to as `$n` come in `parameters`.
    init(unsafeSQL sql: String, parameters: [PostgresParameter] = []) {
        self.sql = sql
        self.parameters = parameters
    }

    init(stringLiteral value: String) { self.init(unsafeSQL: value) }

    init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, parameters: stringInterpolation.parameters)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var parameters: [PostgresParameter] = []

        init(literalCapacity: Int, interpolationCount: Int) { sql.reserveCapacity(literalCapacity + 3 * interpolationCount) }

        mutating func appendLiteral(_ literal: String) { sql += literal }

        mutating func appendInterpolation<Value: PostgresBindable>(_ value: Value) {
            parameters.append(PostgresParameter(value))
            sql += "$\(parameters.count)"
        }

        mutating func appendInterpolation<Value: PostgresBindable>(_ value: Value?) {
            parameters.append(PostgresParameter(value))
            sql += "$\(parameters.count)"
        }
    }
}

/// One parameter as libpq takes it: the type's OID and the value as text (nil is SQL NULL).
struct PostgresParameter: Sendable {
    let type: Oid
    let text: String?

    init<Value: PostgresBindable>(_ value: Value?) {
        type = Value.postgresType
        text = value?.postgresText
    }
}

/// A Swift value sent as a typed parameter, in PostgreSQL's text form.
protocol PostgresBindable {
    /// The OID of the PostgreSQL type (pg_type.oid, fixed for built-in types).
    static var postgresType: Oid { get }
    var postgresText: String { get }
}

extension Int: PostgresBindable {
    static var postgresType: Oid { 20 }  // int8
    var postgresText: String { String(self) }
}

extension Int64: PostgresBindable {
    static var postgresType: Oid { 20 }  // int8
    var postgresText: String { String(self) }
}

extension Double: PostgresBindable {
    static var postgresType: Oid { 701 }  // float8
    /// Swift's shortest round-trip form; `inf`, `-inf` and `nan` are spellings PostgreSQL reads.
    var postgresText: String { "\(self)" }
}

extension String: PostgresBindable {
    static var postgresType: Oid { 25 }  // text
    var postgresText: String { self }
}

extension Bool: PostgresBindable {
    static var postgresType: Oid { 16 }  // bool
    var postgresText: String { self ? "t" : "f" }
}

extension Date: PostgresBindable {
    static var postgresType: Oid { 1184 }  // timestamptz
    var postgresText: String { PostgresTimestamp.text(self) }
}
