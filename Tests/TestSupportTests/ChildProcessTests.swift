import Foundation
import Testing
import TestSupport

/// The tests' one spawn helper: output captured in full whatever the order, a bounded wait that
/// kills and reaps, and no wait on a grandchild that keeps the output open.
@Suite struct ChildProcessTests {
    /// 200 kB on stderr before anything on stdout: reading stdout to its end first (as
    /// KaraokeCommand did with Pipes) blocks both sides once the stderr pipe (64 kB) is full.
    @Test func aChattyStderrBeforeStdoutIsCapturedWhole() throws {
        let result = try ChildProcess.run("/bin/sh", ["-c", "head -c 200000 /dev/zero | tr '\\0' e >&2; echo done"], timeout: 30)
        #expect(result.status == 0)
        #expect(result.err.count == 200_000)
        #expect(result.outText == "done\n")
    }

    @Test func exitStatusAndDirectoryAreThoseOfTheChild() throws {
        let result = try ChildProcess.run("sh", ["-c", "pwd; exit 3"], in: "/tmp", timeout: 30)
        #expect(result.status == 3)
        #expect(result.outText == "/tmp\n")
        let killed = try ChildProcess.run("/bin/sh", ["-c", "kill -9 $$"], timeout: 30)
        #expect(killed.status == 128 + 9)
    }

    @Test func aChildPastItsTimeoutIsKilledAndReaped() throws {
        let pidFile = NSTemporaryDirectory() + "child-timeout-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let start = Date()
        #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess.run("/bin/sh", ["-c", "echo $$ > \(pidFile); exec sleep 60"], timeout: 0.5)
        }
        #expect(Date().timeIntervalSince(start) < 10)
        let pid = try #require(Int32(String(decoding: FileManager.default.contents(atPath: pidFile) ?? Data(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Reaped: not even a zombie is left under that pid.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    /// As `pg_ctl start` leaves a server behind holding the descriptors it was given: the call
    /// ends when the child does, not when the last holder of its output closes it.
    @Test func aGrandchildHoldingTheOutputDoesNotHoldTheCallUp() throws {
        let start = Date()
        let result = try ChildProcess.run("/bin/sh", ["-c", "sleep 20 & echo $!"], timeout: 15)
        let grandchild = Int32(result.outText.trimmingCharacters(in: .whitespacesAndNewlines))
        if let grandchild { kill(grandchild, SIGTERM) }
        #expect(result.status == 0)
        #expect(grandchild != nil)
        #expect(Date().timeIntervalSince(start) < 10)
    }
}
