import Foundation

/// `timestamptz` in PostgreSQL's ISO text form, to the microsecond (PostgreSQL's own
/// resolution). The store's connections ask for `DateStyle=ISO` and `TimeZone=UTC`, so the server
/// writes `2026-12-07 15:50:45.123456+00`; other offsets are read too.
enum PostgresTimestamp {
    static func text(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let seconds = floorDivide(micros, 1_000_000), fraction = micros - seconds * 1_000_000
        let days = floorDivide(seconds, 86_400), ofDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let micro = String(fraction), padded = String(repeating: "0", count: 6 - micro.count) + micro
        return "\(year)-\(two(month))-\(two(day)) \(two(ofDay / 3600)):\(two(ofDay / 60 % 60)):\(two(ofDay % 60)).\(padded)+00"
    }

    static func date(_ text: String) -> Date? {
        var scanner = Digits(Array(text.utf8))
        guard let year = scanner.number(), scanner.skip("-"), let month = scanner.number(), scanner.skip("-"),
              let day = scanner.number(), scanner.skip(" ") || scanner.skip("T"),
              let hour = scanner.number(), scanner.skip(":"), let minute = scanner.number(), scanner.skip(":"),
              let second = scanner.number(), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var micros: Int64 = 0
        if scanner.skip(".") {
            let start = scanner.position
            guard let digits = scanner.number() else { return nil }
            let count = scanner.position - start
            guard count <= 9 else { return nil }
            var scaled = digits
            for _ in count..<6 { scaled *= 10 }
            for _ in 6..<max(6, count) { scaled /= 10 }
            micros = scaled
        }
        var offset: Int64 = 0
        if let sign = scanner.sign() {
            guard let hours = scanner.number() else { return nil }
            var minutes: Int64 = 0, seconds: Int64 = 0
            if scanner.skip(":") { guard let m = scanner.number() else { return nil }; minutes = m }
            if scanner.skip(":") { guard let s = scanner.number() else { return nil }; seconds = s }
            offset = sign * (hours * 3600 + minutes * 60 + seconds)
        }
        guard scanner.atEnd else { return nil }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    // Howard Hinnant's days-from-civil and its inverse (proleptic Gregorian, day 0 = 1970-01-01).
    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// Reads unsigned decimal numbers and single separator bytes.
    private struct Digits {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func number() -> Int64? {
            var value: Int64 = 0, any = false
            while position < bytes.count, (48...57).contains(bytes[position]), value < Int64.max / 100 {
                value = value * 10 + Int64(bytes[position] - 48)
                position += 1
                any = true
            }
            return any ? value : nil
        }

        mutating func skip(_ separator: Character) -> Bool {
            guard position < bytes.count, bytes[position] == separator.asciiValue else { return false }
            position += 1
            return true
        }

        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
