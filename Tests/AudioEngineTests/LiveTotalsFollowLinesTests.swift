import Foundation
import KaraokeRoom
import RoomProtocol
import TestSupport
import Testing

/// The running `total` a screen shows after a line's rating must already count that line
/// (issue 13: the badge lagged one line behind the rating). The whole test song is sung live
/// through the room as `serve` wires it; after every `lineScore` the next `total` of that
/// singer equals the sum of all its line scores so far, and the final total the whole song's.
extension PulseAudioTests {
@Suite struct LiveTotalsFollowLinesTests {
    @Test func everyTotalIncludesTheLineItFollows() throws {
        let fixture = try LiveRoomSessionEndToEndTests.Fixture()
        defer { fixture.close() }
        try fixture.room.load(songId: "live-test", autoplay: true)
        let events = { fixture.transport.events.all }
        let finals = { events().compactMap { event -> TotalPayload? in
            if case .total(let t) = event, t.final { t } else { nil }
        } }
        #expect(waitUntil(timeout: 25) { Set(finals().map(\.singer)) == [0, 1] }, "no final totals")

        var sums: [Int: Double] = [:]
        var awaitingTotal: Set<Int> = []
        var checked = 0
        for event in events() {
            switch event {
            case .lineScore(let line):
                sums[line.singer, default: 0] += line.score
                awaitingTotal.insert(line.singer)
            case .total(let total):
                let sum = sums[total.singer] ?? 0
                #expect(abs(total.score - sum.rounded()) <= 1,
                        "singer \(total.singer) total \(total.score) after lines summing to \(sum) (final: \(total.final))")
                if awaitingTotal.remove(total.singer) != nil { checked += 1 }
            default: break
            }
        }
        // Three lines per singer, each followed by a total (a step may close two lines at once).
        #expect(checked >= 4, "only \(checked) totals followed a line score")
        #expect(awaitingTotal.isEmpty, "line scores with no total after them: singers \(awaitingTotal)")
        // The in-tune singer's lines score high, so a total missing one would be far off.
        #expect((sums[1] ?? 0) > 8000)
    }
}
}
