import AudioEngine
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Analysis threads step back behind playback, and only they do; playback steps forward as far
/// as it is allowed, and says how far.
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

    @Test func playbackRaisesOnlyTheCallingThreadAndSaysHowFar() throws {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let before = getpriority(which, 0)
        let seen = Mutex<(ThreadPriority.Outcome, Int32, Int32, Int32)?>(nil)
        let thread = Thread {
            let outcome = ThreadPriority.raiseCurrentThreadForPlayback()
            var policy: Int32 = 0
            var parameters = sched_param()
            pthread_getschedparam(pthread_self(), &policy, &parameters)
            seen.withLock { $0 = (outcome, policy, parameters.sched_priority, getpriority(which, 0)) }
            // Back to ordinary before the thread ends (a test process should not keep RT threads).
            var ordinary = sched_param(sched_priority: 0)
            pthread_setschedparam(pthread_self(), SCHED_OTHER, &ordinary)
        }
        thread.start()
        let deadline = Date().addingTimeInterval(5)
        while seen.withLock({ $0 }) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let (outcome, policy, priority, niceness) = try #require(seen.withLock { $0 })
        switch outcome {
        case .realtime:
            #expect(policy == SCHED_FIFO && priority == ThreadPriority.playbackRealtime)
        case .raisedNice:
            #expect(policy == SCHED_OTHER && niceness <= ThreadPriority.playbackNiceness)
        case .ordinary:
            #expect(policy == SCHED_OTHER && niceness == before, "nothing may have changed")
        case .unknown:
            Issue.record("the raise must say what it got")
        }
        var mine: Int32 = 0
        var parameters = sched_param()
        pthread_getschedparam(pthread_self(), &mine, &parameters)
        #expect(mine == SCHED_OTHER, "the test's own thread must keep its scheduling")
        #endif
    }
}
