import AudioEngine
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Analysis threads step back behind playback, and only they do.
@Suite struct ThreadPriorityTests {
    @Test func lowersOnlyTheCallingThread() throws {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let before = getpriority(which, 0)
        let seen = Mutex<(Bool, Int32)?>(nil)
        let thread = Thread {
            let took = ThreadPriority.lowerCurrentThread(to: ThreadPriority.analysis)
            seen.withLock { $0 = (took, getpriority(which, 0)) }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(5)
        while seen.withLock({ $0 }) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let (took, niceness) = try #require(seen.withLock { $0 })
        #expect(took)
        #expect(niceness == max(before, ThreadPriority.analysis))
        #expect(getpriority(which, 0) == before, "the test's own thread must keep its priority")
        #endif
    }
}
