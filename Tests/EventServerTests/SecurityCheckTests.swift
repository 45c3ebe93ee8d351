import EventServer
import Testing

@Suite("Security: room PIN, origin check, rate limiter")
struct SecurityCheckTests {
    @Test func roomPinAndOriginChecks() {
        #expect(RoomPin("12") == nil && RoomPin("12a4") == nil)
        let pin = RoomPin("0420")!
        #expect(pin.matches("0420") && !pin.matches("0421") && !pin.matches(nil) && !pin.matches("04200"))
        #expect(RoomPin.random().digits.count == 6)
        let hosts = HostAllowList(names: ["127.0.0.1", "localhost", "karaoke.lan"])
        let check = OriginCheck(allowedOrigins: ["http://tv.local:8080/"], hosts: hosts, port: 9000)
        #expect(check.accepts(origin: "http://127.0.0.1:9000"))
        #expect(check.accepts(origin: "http://Karaoke.LAN:9000"))
        #expect(!check.accepts(origin: "http://127.0.0.1:9001"))
        #expect(check.accepts(origin: "http://TV.local:8080"))
        #expect(!check.accepts(origin: "null"))
        #expect(!check.accepts(origin: "http://evil.com:9000"))
        #expect(!check.accepts(origin: "http://evil.com:9000", host: "evil.com:9000"), "DNS rebinding: the Host name is not trusted")
        // Reached by an address (a port forward): the page at that very address is ours.
        #expect(check.accepts(origin: "http://192.168.1.5:8080", host: "192.168.1.5:8080"))
        #expect(!check.accepts(origin: "http://192.168.1.66:8080", host: "192.168.1.5:8080"))
        #expect(check.accepts(origin: nil))
    }

    @Test func rateLimiterRefillsAndDisconnectsAFlooderAboveTheLimit() {
        var limiter = RateLimiter(limits: .init(perSecond: 2, burst: 2, disconnectAfter: 3), now: 0)
        #expect(limiter.admit(now: 0) == .allow)
        #expect(limiter.admit(now: 0) == .allow)
        #expect(limiter.admit(now: 0) == .reject)
        #expect(limiter.admit(now: 0) == .rejectQuietly, "the client was told a moment ago")
        #expect(limiter.admit(now: 0.5) == .allow)
        // 2 refused, less 1/3 forgiven: the third refusal in a row reaches the limit.
        #expect(limiter.admit(now: 0.5) == .rejectQuietly)
        #expect(limiter.admit(now: 0.5) == .disconnect)

        // Twice the sustained rate for 10 s is flooding, whatever the spacing.
        var flooder = RateLimiter(limits: .init(), now: 0)
        var disconnectedAt: Double?
        for i in 0..<600 where disconnectedAt == nil {
            let now = Double(i) / 60
            if flooder.admit(now: now) == .disconnect { disconnectedAt = now }
        }
        #expect(disconnectedAt != nil && disconnectedAt! < 8)
        // Just under the rate is never disconnected.
        var honest = RateLimiter(limits: .init(), now: 0)
        #expect((0..<900).allSatisfy { honest.admit(now: Double($0) / 29) == .allow })
    }
}
