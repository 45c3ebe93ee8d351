import EventServer
import Testing

@Suite("Security primitives: PIN back-off, host sessions, host names, connection budget, log throttle")
struct SecurityPrimitivesTests {
    @Test func pinGuessesBackOffPerAddress() {
        var limiter = PinAttemptLimiter()
        var evaluated = 0
        // An attacker trying as fast as it can for 20 s: only the allowed attempts are evaluated.
        var now = 0.0
        while now < 20 {
            if limiter.check("10.0.0.9", now: now) == .evaluate {
                evaluated += 1
                limiter.recordFailure("10.0.0.9", now: now)
            }
            now += 0.001
        }
        #expect(evaluated <= 10, "5 free tries, then 1, 2, 4, 8 s apart")
        #expect(evaluated >= 5)
        // Another address is not affected; success forgets the record.
        #expect(limiter.check("10.0.0.10", now: now) == .evaluate)
        limiter.recordSuccess("10.0.0.9")
        #expect(limiter.check("10.0.0.9", now: now) == .evaluate)
        // The back-off is capped, and forgotten after a quiet spell.
        var capped = PinAttemptLimiter(limits: .init(freeAttempts: 0, baseDelay: 1, maxDelay: 60, forgetAfter: 900))
        for _ in 0..<40 { capped.recordFailure("a", now: 0) }
        #expect(capped.check("a", now: 59) != .evaluate)
        #expect(capped.check("a", now: 60.5) == .evaluate)
        #expect(capped.failures(of: "a") == 40)
        #expect(capped.check("a", now: 2000) == .evaluate)
        #expect(capped.failures(of: "a") == 0)
    }

    @Test func hostSessionsAreRandomAndExpire() {
        var sessions = HostSessions(lifetime: 100, capacity: 2)
        let first = sessions.issue(now: 0)
        let second = sessions.issue(now: 1)
        #expect(first.count == 32 && first != second)
        #expect(sessions.isValid(first, now: 50) && sessions.isValid(second, now: 50))
        #expect(!sessions.isValid(first, now: 101))
        #expect(!sessions.isValid("0123456789abcdef0123456789abcdef", now: 1))
        #expect(!sessions.isValid(nil, now: 1))
        _ = sessions.issue(now: 2)  // over capacity: the oldest goes
        #expect(!sessions.isValid(first, now: 3))
        #expect(sessions.isValid(second, now: 3))
    }

    @Test func hostNamesAndAddressKeys() {
        let hosts = HostAllowList(names: ["127.0.0.1", "localhost", "::1", "Karaoke.lan"])
        #expect(hosts.accepts(hostHeader: "127.0.0.1:8201"))
        #expect(hosts.accepts(hostHeader: "LOCALHOST:8201"))
        #expect(hosts.accepts(hostHeader: "karaoke.lan."))
        #expect(hosts.accepts(hostHeader: "[::1]:8201"))
        #expect(!hosts.accepts(hostHeader: "evil.com:8201"))
        #expect(!hosts.accepts(hostHeader: "127.0.0.1.evil.com"))
        #expect(!hosts.accepts(hostHeader: "127.0.0.1:junk"))
        #expect(hosts.accepts(hostHeader: nil), "tools without Host are not browsers")
        #expect(hosts.accepts(hostHeader: "192.168.1.5:8080"), "an address cannot be rebound")
        #expect(hosts.accepts(hostHeader: "[fe80::1]:8080"))
        #expect(!hosts.accepts(hostHeader: "192.168.1.5.nip.io:8080"))
        let reachable = HostAllowList.reachableNames(listenHost: "0.0.0.0", extra: ["party.example"])
        #expect(reachable.names.isSuperset(of: ["localhost", "127.0.0.1", "party.example"]))

        #expect(ClientAddress.key("::ffff:192.168.1.7") == "192.168.1.7")
        #expect(ClientAddress.key("2001:db8:1:2:aaaa::1") == ClientAddress.key("2001:db8:1:2::ffff"))
        #expect(ClientAddress.key("2001:db8:1:2::1") != ClientAddress.key("2001:db8:1:3::1"))
    }

    @Test func connectionBudgetCapsAnAddressAndEvictsTheOldestIdle() {
        var budget = ConnectionBudget(limits: .init(perAddress: 2, total: 3))
        #expect(budget.admit("a") == .accept); budget.add(1, address: "a", now: 0)
        #expect(budget.admit("a") == .accept); budget.add(2, address: "a", now: 1)
        #expect(budget.admit("a") == .refuse, "an address gets no more than its share")
        budget.markWebSocket(1)
        #expect(budget.admit("b") == .accept); budget.add(3, address: "b", now: 2)
        // Full: the oldest connection that is not a WebSocket makes room.
        #expect(budget.admit("c") == .acceptEvicting(2))
        budget.add(4, address: "c", now: 3)
        budget.remove(2)
        #expect(budget.count == 3 && budget.count(of: "a") == 1)
        budget.markWebSocket(3); budget.markWebSocket(4)
        // Only WebSockets left: the heaviest address (all tie at one) loses its oldest.
        if case .acceptEvicting = budget.admit("d") {} else { Issue.record("a full server must still admit") }

        // Short of descriptors (files being sent hold them too): room is made before the budget is full.
        var roomy = ConnectionBudget(limits: .init(perAddress: 8, total: 100))
        for key in 1...4 { roomy.add(key, address: "x", now: Double(key)) }
        roomy.markWebSocket(1)
        #expect(roomy.admit("y") == .accept)
        #expect(roomy.admit("y", descriptorsLow: true) == .acceptEvicting(2))
        #expect(roomy.makeRoom(5) == [3, 4, 1], "idle ones first, oldest first, then WebSockets")
    }

    @Test func filesBeingSentAreCappedPerAddressAndCountAsDescriptors() {
        var budget = ConnectionBudget(limits: .init(perAddress: 8, total: 10, filesPerAddress: 2))
        for key in 1...4 { budget.add(key, address: "slow", now: Double(key)) }
        #expect(budget.beginFile(1) == .open)
        #expect(budget.beginFile(2) == .open)
        #expect(budget.beginFile(3) == .addressBusy, "an address gets no more files than its share")
        #expect(budget.beginFile(1) == .open, "the next request on a connection already counted")
        #expect(budget.files(of: "slow") == 2 && budget.descriptors == 6)

        // Another address still gets its files; past the total, nobody opens another.
        for key in 5...8 { budget.add(key, address: "other", now: Double(key)) }
        #expect(budget.beginFile(5) == .serverBusy, "4 + 4 connections and 2 files fill 10 descriptors")
        #expect(budget.descriptors == 10)
        // Full by descriptors (files included), a new connection makes room: the oldest
        // non-WebSocket, i.e. the slow reader that has held its socket and file longest.
        #expect(budget.admit("new") == .acceptEvicting(1))
        #expect(budget.beginFile(5) == .open, "the victim's two descriptors are as good as free")
        budget.remove(1)
        #expect(budget.files(of: "slow") == 1 && budget.descriptors == 9)

        // A finished file, or an upgrade to WebSocket, gives its descriptor back.
        budget.endFile(2)
        budget.endFile(2)
        #expect(budget.files(of: "slow") == 0 && budget.descriptors == 8)
        #expect(budget.beginFile(3) == .open)
        budget.markWebSocket(3)
        #expect(budget.files(of: "slow") == 0)
        #expect(budget.beginFile(99) == .serverBusy, "an unknown connection opens nothing")
    }

    @Test func logThrottleSummarisesAFlood() {
        var throttle = LogThrottle(burst: 2, window: 10)
        #expect(throttle.admit("pin", now: 0) == .log(suppressedBefore: 0))
        #expect(throttle.admit("pin", now: 1) == .log(suppressedBefore: 0))
        for i in 0..<1000 { #expect(throttle.admit("pin", now: 2 + Double(i) / 1000) == .drop) }
        #expect(throttle.admit("other", now: 3) == .log(suppressedBefore: 0))
        #expect(throttle.admit("pin", now: 11) == .log(suppressedBefore: 1000))
    }
}
