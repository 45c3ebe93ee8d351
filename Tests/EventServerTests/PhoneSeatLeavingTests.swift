import EventServer
import Foundation
import KaraokeRoom
import Testing

/// Issue 40: a phone that left held its seat 60 s, so eight phones leaving blocked every seat
/// for a minute. A page that closes says so (its close frame's status 1001, "going away"; 1000
/// from a client that is done) and its seat is free at once; a connection that drops without a
/// close frame still holds the seat for the resume window.
@Suite("Phone seats: a closed page frees its seat, a dropped one holds it")
struct PhoneSeatLeavingTests {
    /// A close frame: status big-endian, as a page's WebSocket sends when the page goes away.
    static func closeFrame(_ status: UInt16) -> [UInt8] { [UInt8(status >> 8), UInt8(status & 0xFF)] }

    @Test(arguments: [UInt16(1001), 1000])
    func aPageThatClosesFreesItsSeatAtOnce(status: UInt16) throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let (ann, annSlot) = try room.seated("Ann")
        let (bo, boSlot) = try room.seated("Bo")
        #expect(annSlot != boSlot)
        try ann.sendFrame(opcode: 8, payload: Self.closeFrame(status))
        #expect(ann.waitForClose(timeout: 5), "the server answers the close")
        ann.close()
        #expect(room.waitForConnections(1))
        // The next phone gets Ann's seat: it was free at once, not held for the resume window.
        let (cy, next) = try room.seated("Cy")
        #expect(next == annSlot)
        withExtendedLifetime((bo, cy)) {}
    }

    @Test func aDroppedConnectionHoldsItsSeatForItsToken() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let (ann, annSlot) = try room.seated("Ann")
        ann.close() // no close frame: the network went away
        #expect(room.waitForConnections(0))
        let (cy, next) = try room.seated("Cy")
        #expect(next != annSlot, "a dropped phone's seat is held for it")
        // A close frame without a status (what a page's own reconnect sends) holds it too.
        let (bo, boSlot) = try room.seated("Bo")
        try bo.sendFrame(opcode: 8, payload: [])
        _ = bo.waitForClose(timeout: 5)
        bo.close()
        #expect(room.waitForConnections(1))
        let (di, after) = try room.seated("Di")
        #expect(after != boSlot && after != annSlot)
        withExtendedLifetime((cy, di)) {}
    }
}
