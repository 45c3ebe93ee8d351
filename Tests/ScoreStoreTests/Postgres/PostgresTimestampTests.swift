import Foundation
import Testing
@testable import ScoreStore
import TestSupport

/// `timestamptz` in and out as PostgreSQL's ISO text, to the microsecond.
@Suite struct PostgresTimestampTests {
    @Test func knownInstantsAsPostgresWritesThem() throws {
        #expect(PostgresTimestamp.text(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00.000000+00")
        #expect(PostgresTimestamp.text(Date(timeIntervalSince1970: 951_782_400.25)) == "2000-02-29 00:00:00.250000+00")
        #expect(PostgresTimestamp.text(Date(timeIntervalSince1970: -1.5)) == "1969-12-31 23:59:58.500000+00")
        #expect(PostgresTimestamp.date("2026-12-07 15:50:45.123456+00") == Date(timeIntervalSince1970: 1_796_658_645.123456))
        #expect(PostgresTimestamp.date("2026-12-07 15:50:45+00") == Date(timeIntervalSince1970: 1_796_658_645))
        #expect(PostgresTimestamp.date("2026-12-07 17:20:45.5+01:30") == Date(timeIntervalSince1970: 1_796_658_645.5))
        #expect(PostgresTimestamp.date("2026-12-07T10:50:45-05") == Date(timeIntervalSince1970: 1_796_658_645))
    }

    @Test func everyMicrosecondSurvivesTheRoundTrip() {
        var generator = SeededGenerator(seed: 1184)
        for _ in 0..<2_000 {
            let micros = Int64.random(in: -2_000_000_000_000_000...4_000_000_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let back = PostgresTimestamp.date(PostgresTimestamp.text(date))
            #expect(back.map { abs($0.timeIntervalSince(date)) <= 1e-6 } == true, "\(PostgresTimestamp.text(date))")
        }
    }

    @Test func textThatIsNoTimestampIsRefused() {
        for text in ["", "2026-12-07", "2026-13-01 00:00:00+00", "2026-12-07 10:00:00+00 junk", "yesterday"] {
            #expect(PostgresTimestamp.date(text) == nil, "\(text)")
        }
    }
}
