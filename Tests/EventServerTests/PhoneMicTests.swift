import EventServer
import Foundation
import KaraokeRoom
import Testing

private func frame(seat: Int, index: UInt64, count: Int = 480, value: Int16 = 1000) -> [UInt8] {
    PhoneAudioFrame.encode(seat: seat, sampleIndex: index, samples: [Int16](repeating: value, count: count))
}

@Suite("Phone microphones: audio frames, seats, gate")
struct PhoneMicTests {
    @Test func framesParseAndBadOnesAreNamed() throws {
        let good = frame(seat: 3, index: 123_456, count: 240)
        let parsed = try good.withUnsafeBytes { try PhoneAudioFrame.parse($0) }
        #expect(parsed == PhoneAudioFrame(seat: 3, sampleIndex: 123_456, sampleRate: 24_000, sampleCount: 240))
        func failure(_ bytes: [UInt8]) -> PhoneAudioFrameError? {
            do { _ = try bytes.withUnsafeBytes { try PhoneAudioFrame.parse($0) }; return nil } catch { return error as? PhoneAudioFrameError }
        }
        var badMagic = good
        badMagic[0] = 0x58
        #expect(failure(badMagic) == .badMagic)
        #expect(failure(Array(good.prefix(19))) == .oddPayload)
        #expect(failure(Array(good.prefix(10))) == .tooShort(10))
        #expect(failure(frame(seat: 0, index: 0, count: PhoneAudioFrame.maxSamples + 1)) == .tooLarge(PhoneAudioFrame.maxBytes + 2))
        #expect(failure(PhoneAudioFrame.encode(seat: 0, sampleIndex: 0, samples: [1, 2], sampleRate: 44_100)) == .unsupportedRate(44_100))
        var version = good
        version[2] = 2
        #expect(failure(version) == .unsupportedVersion(2))
    }

    @Test func audioWithoutASeatIsRefusedButTheClientStays() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let client = try WebSocketTestClient(port: room.port)
        _ = try client.waitFor("hello")
        try client.sendFrame(opcode: 2, payload: frame(seat: 0, index: 0))
        let error = try #require(try client.waitFor("error"))
        #expect(error["code"] as? String == "audioRefused")
        // Still connected: an ordinary command is answered.
        try client.sendText(#"{"type":"library"}"#)
        #expect(try client.waitFor("library") != nil)
        #expect(room.phones.slots.allSatisfy { $0.frames == 0 })
    }

    @Test func aSeatedPhoneStreamsIntoItsRingStampedThroughTheClockOffset() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let (client, seat) = try room.seatedClient(name: "Ann")
        let slot = try #require(seat["slot"] as? Int)
        #expect(seat["sampleRate"] as? Int == 24_000)
        let phone = room.phones.slots[slot]
        var reader = phone.channel.makeReader()
        // Frames before the first clock sync count as received but are not scored (no time yet).
        try client.sendFrame(opcode: 2, payload: frame(seat: slot, index: 0))
        try client.sendText(#"{"type":"phoneClockOffset","offset":1000.0,"rtt":0.004}"#)
        #expect(waitUntil { phone.clockOffset == 1000 })
        try client.sendFrame(opcode: 2, payload: frame(seat: slot, index: 24_000))
        try client.sendFrame(opcode: 2, payload: frame(seat: slot, index: 24_480))
        // A lost frame (24 960…25 439): the gap is filled with silence.
        try client.sendFrame(opcode: 2, payload: frame(seat: slot, index: 25_440))
        #expect(waitUntil { phone.frames == 4 })
        var buffer = [Float](repeating: 0, count: 8192)
        var samples: [Float] = []
        var firstTime: Double?
        #expect(waitUntil {
            let (n, t) = buffer.withUnsafeMutableBufferPointer { reader.read(into: $0) }
            if firstTime == nil { firstTime = t }
            samples += buffer[0..<n]
            return samples.count >= 2 * 4 * 480
        })
        // 48 kHz after upsampling: 4 × 480 phone samples (one of them the filled gap).
        #expect(samples.count == 2 * 4 * 480)
        // Host time of the first = phone seconds + offset, less the upsampler's lag.
        let expected = (24_000.0 - Double(8)) / 24_000 + 1000
        #expect(abs((firstTime ?? 0) - expected) < 1e-6)
        // Level 1000/32768 carried through the half-band filter; silence in the gap.
        #expect(abs(samples[400] - 1000 / 32768) < 0.002)
        #expect(abs(samples[2 * 1200]) < 1e-6)
        // The room lists the seat as a phone singer (a newcomer's hello carries the state).
        let viewer = try WebSocketTestClient(port: room.port)
        let hello = try #require(try viewer.waitFor("hello"))
        let singers = try #require((hello["state"] as? [String: Any])?["singers"] as? [[String: Any]])
        #expect(singers.contains { $0["name"] as? String == "Ann" && $0["source"] as? String == "phone" })
    }

    @Test func aWobblingStampKeepsTheStreamContiguous() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let (client, seat) = try room.seatedClient(name: "Wob")
        let slot = try #require(seat["slot"] as? Int)
        let phone = room.phones.slots[slot]
        var reader = phone.channel.makeReader()
        try client.sendText(#"{"type":"phoneClockOffset","offset":0.5,"rtt":0.002}"#)
        #expect(waitUntil { phone.clockOffset == 0.5 })
        // 1 sample late, then 2 early: a page's clock mapping wobbling; nothing is dropped or inserted.
        for index: UInt64 in [48_000, 48_481, 48_958] { try client.sendFrame(opcode: 2, payload: frame(seat: slot, index: index)) }
        // 40 ms later than expected: a real gap, filled with silence.
        try client.sendFrame(opcode: 2, payload: frame(seat: slot, index: 48_000 + 3 * 480 + 960))
        #expect(waitUntil { phone.frames == 4 })
        var buffer = [Float](repeating: 0, count: 16_384)
        var total = 0
        #expect(waitUntil {
            total += buffer.withUnsafeMutableBufferPointer { reader.read(into: $0).count }
            return total >= 2 * (4 * 480 + 960)
        })
        #expect(total == 2 * (4 * 480 + 960))
    }

    @Test func aMalformedOrOversizedFrameClosesOnlyItsSender() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let (bad, seat) = try room.seatedClient(name: "Bad")
        let (big, _) = try room.seatedClient(name: "Big")
        let (other, otherSeat) = try room.seatedClient(name: "Other")
        var garbage = frame(seat: seat["slot"] as! Int, index: 0)
        garbage[0] = 0
        try bad.sendFrame(opcode: 2, payload: garbage)
        #expect(bad.waitForClose(timeout: 5))
        try big.sendFrame(opcode: 2, payload: [UInt8](repeating: 0x4B, count: PhoneAudioFrame.maxBytes + 1))
        #expect(big.waitForClose(timeout: 5))
        // A frame for someone else's seat is malformed too.
        let (thief, _) = try room.seatedClient(name: "Thief")
        try thief.sendFrame(opcode: 2, payload: frame(seat: otherSeat["slot"] as! Int, index: 0))
        #expect(thief.waitForClose(timeout: 5))
        try other.sendText(#"{"type":"library"}"#)
        #expect(try other.waitFor("library") != nil)
    }

    @Test func aReconnectingPhoneTakesItsSeatBackWithItsToken() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let (first, seat) = try room.seatedClient(name: "Ann")
        let token = try #require(seat["token"] as? String)
        first.close()
        let again = try WebSocketTestClient(port: room.port)
        _ = try again.waitFor("hello")
        // Someone else cannot take a seat with a made-up token; the real one gets it back.
        try again.sendText(#"{"type":"phoneMic","name":"Ann","resume":"\#(token)"}"#)
        let back = try #require(try again.waitFor("phoneMicSeat"))
        #expect(back["slot"] as? Int == seat["slot"] as? Int)
        #expect(back["token"] as? String == token)
        try again.sendFrame(opcode: 2, payload: frame(seat: back["slot"] as! Int, index: 0))
        let phone = room.phones.slots[back["slot"] as! Int]
        #expect(waitUntil { phone.frames == 1 })
    }

    /// A part the host gives a phone seat sticks through the phone taking its seat again (Stop
    /// then Sing with the same link, or a reconnect with its token); the latest explicit change
    /// wins, the phone's own included.
    @Test func theHostsPartForAPhoneSeatSticksThroughARetake() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        let host = try WebSocketTestClient(port: room.port)
        _ = try host.waitFor("hello")
        try host.sendText(#"{"type":"hello","role":"host","pin":"4321"}"#)
        _ = try #require(try host.waitFor("hello") { $0["role"] as? String == "host" })
        func part(_ singer: Int) throws -> Int? {
            let state = try #require(try host.waitFor("state") { state in
                ((state["singers"] as? [[String: Any]]) ?? []).contains { $0["singer"] as? Int == singer && $0["source"] as? String == "phone" }
            })
            return ((state["singers"] as? [[String: Any]]) ?? []).first { $0["singer"] as? Int == singer }?["part"] as? Int
        }
        let phone = try WebSocketTestClient(port: room.port)
        _ = try phone.waitFor("hello")
        try phone.sendText(#"{"type":"phoneMic","name":"Ann","part":0}"#)
        let seat = try #require(try phone.waitFor("phoneMicSeat"))
        let singer = try #require(seat["singer"] as? Int)
        #expect(try part(singer) == 0)

        try host.sendText(#"{"type":"selectSinger","singer":\#(singer),"part":1}"#)
        #expect(try host.waitFor("state") { state in
            ((state["singers"] as? [[String: Any]]) ?? []).contains { $0["singer"] as? Int == singer && $0["part"] as? Int == 1 }
        } != nil)
        // Stop, then Sing again with the same link (part 0): not a change, the host's part stays.
        try phone.sendText(#"{"type":"phoneMicRelease"}"#)
        _ = try #require(try phone.waitFor("phoneMicReleased"))
        try phone.sendText(#"{"type":"phoneMic","name":"Ann","part":0}"#)
        let again = try #require(try phone.waitFor("phoneMicSeat"))
        #expect(again["part"] as? Int == 1)
        let singerAgain = try #require(again["singer"] as? Int)
        #expect(try part(singerAgain) == 1)
        // A network blip: the page comes back with its token and is told the host's part.
        let token = try #require(again["token"] as? String)
        phone.close()
        let back = try WebSocketTestClient(port: room.port)
        _ = try back.waitFor("hello")
        try back.sendText(#"{"type":"phoneMic","name":"Ann","part":0,"resume":"\#(token)"}"#)
        #expect(try back.waitFor("phoneMicSeat")?["part"] as? Int == 1)
        // The phone user's own explicit change (selectSinger from the phone) wins over the host's...
        try back.sendText(#"{"type":"hello","role":"guest"}"#)
        _ = try #require(try back.waitFor("hello") { $0["role"] as? String == "guest" })
        try back.sendText(#"{"type":"selectSinger","singer":\#(singerAgain),"part":0}"#)
        #expect(try host.waitFor("state") { state in
            ((state["singers"] as? [[String: Any]]) ?? []).contains { $0["singer"] as? Int == singerAgain && $0["part"] as? Int == 0 }
        } != nil)
        try back.sendText(#"{"type":"phoneMicRelease"}"#)
        _ = try #require(try back.waitFor("phoneMicReleased"))
        try back.sendText(#"{"type":"phoneMic","name":"Ann","part":0}"#)
        #expect(try back.waitFor("phoneMicSeat")?["part"] as? Int == 0)
        // ...and so does a new part in the phone's own link.
        try host.sendText(#"{"type":"selectSinger","singer":\#(singerAgain),"part":0}"#)
        try back.sendText(#"{"type":"phoneMicRelease"}"#)
        _ = try #require(try back.waitFor("phoneMicReleased"))
        try back.sendText(#"{"type":"phoneMic","name":"Ann","part":1}"#)
        #expect(try back.waitFor("phoneMicSeat")?["part"] as? Int == 1)
    }

    @Test func atMostEightPhonesAndTheClockPingIsAnswered() throws {
        let room = try PhoneRoom()
        defer { room.stop() }
        var clients: [WebSocketTestClient] = []
        for i in 0..<PhoneSeats.maxPhones { clients.append(try room.seatedClient(name: "P\(i)").0) }
        let ninth = try WebSocketTestClient(port: room.port)
        _ = try ninth.waitFor("hello")
        try ninth.sendText(#"{"type":"phoneMic","name":"Nine"}"#)
        #expect(try ninth.waitFor("error")?["code"] as? String == "phoneSeatsFull")
        let before = monotonicNow()
        try ninth.sendText(#"{"type":"phoneClock","t0":12.5}"#)
        let reply = try #require(try ninth.waitFor("phoneClock"))
        #expect(reply["t0"] as? Double == 12.5)
        let t1 = try #require(reply["t1"] as? Double)
        #expect(t1 >= before && t1 <= monotonicNow())
    }
}

/// Polls `condition` for up to 5 s.
private func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

/// The server's host clock (CLOCK_MONOTONIC seconds).
private func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
