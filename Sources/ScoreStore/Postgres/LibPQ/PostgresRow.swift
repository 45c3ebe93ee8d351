import CLibPQ
import Foundation

/// One row of a result, its values copied out of libpq as text (nil for SQL NULL).
struct PostgresRow: Sendable {
    /// Column name → position; names as PostgreSQL returns them (unquoted names folded to lower case).
    let columns: [String: Int]
    let values: [String?]

    static func rows(of result: OpaquePointer) -> [PostgresRow] {
        let fieldCount = Int(PQnfields(result)), rowCount = Int(PQntuples(result))
        var columns: [String: Int] = [:]
        for field in 0..<fieldCount { columns[String(cString: PQfname(result, Int32(field)))] = field }
        return (0..<rowCount).map { row in
            PostgresRow(columns: columns, values: (0..<fieldCount).map { field in
                PQgetisnull(result, Int32(row), Int32(field)) == 1 ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(field)))
            })
        }
    }

    /// The value of `column` (its name in lower case), which must not be NULL.
    func decode<Value: PostgresDecodable>(_ column: String, as type: Value.Type = Value.self) throws(PostgresError) -> Value {
        guard let value = try decodeIfPresent(column, as: type) else {
            throw PostgresError(message: "column \(column) is NULL where a \(Value.self) was expected")
        }
        return value
    }

    /// The value of `column`, or nil for SQL NULL.
    func decodeIfPresent<Value: PostgresDecodable>(_ column: String, as type: Value.Type = Value.self) throws(PostgresError) -> Value? {
        guard let index = columns[column] else {
            throw PostgresError(message: "the result has no column \(column) (it has \(columns.keys.sorted().joined(separator: ", ")))")
        }
        guard let text = values[index] else { return nil }
        guard let value = Value(postgresText: text) else {
            throw PostgresError(message: "column \(column) holds \"\(text)\", not a \(Value.self)")
        }
        return value
    }
}

/// A Swift value read from PostgreSQL's text form of a column.
protocol PostgresDecodable {
    init?(postgresText: String)
}

extension Int: PostgresDecodable {
    init?(postgresText: String) { self.init(postgresText) }
}

extension Int64: PostgresDecodable {
    init?(postgresText: String) { self.init(postgresText) }
}

extension Double: PostgresDecodable {
    /// Also `Infinity`, `-Infinity` and `NaN`, which PostgreSQL writes for those values.
    init?(postgresText: String) { self.init(postgresText) }
}

extension String: PostgresDecodable {
    init?(postgresText: String) { self = postgresText }
}

extension Bool: PostgresDecodable {
    init?(postgresText: String) {
        switch postgresText {
        case "t": self = true
        case "f": self = false
        default: return nil
        }
    }
}

extension Date: PostgresDecodable {
    init?(postgresText: String) {
        guard let date = PostgresTimestamp.date(postgresText) else { return nil }
        self = date
    }
}
