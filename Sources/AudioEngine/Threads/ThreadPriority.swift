#if canImport(Glibc)
import Glibc
#endif

/// Scheduling for the calling thread. Linux applies priority and `nice` per thread, so one
/// thread can step forward or back without touching the rest of the process.
public enum ThreadPriority {
    /// Pitch detection and other analysis: behind playback. When the CPU is short (many phones,
    /// a slow box) the backing track keeps playing and the analysis lags instead; the played
    /// sound is what the whole room hears, a late pitch frame only one singer's bar.
    public static let analysis: Int32 = 5

    /// The playback thread's real-time priority: under PulseAudio's own I/O threads (its
    /// `realtime-priority` is 5), as JACK clients sit under their server.
    public static let playbackRealtime: Int32 = 4
    /// Without real-time rights: PulseAudio's own `high-priority` niceness.
    public static let playbackNiceness: Int32 = -11

    /// What the playback thread got.
    public enum Outcome: Int, Sendable, CustomStringConvertible {
        /// Not asked yet (no buffer written).
        case unknown
        /// `SCHED_FIFO` at `playbackRealtime`: other work on the box cannot delay it.
        case realtime
        /// Niced to `playbackNiceness`: it wins the CPU over ordinary work most of the time.
        case raisedNice
        /// Neither was permitted (no `CAP_SYS_NICE`, no `RLIMIT_RTPRIO`/`RLIMIT_NICE`).
        case ordinary

        public var description: String {
            switch self {
            case .unknown: "not started"
            case .realtime: "real-time (SCHED_FIFO \(ThreadPriority.playbackRealtime))"
            case .raisedNice: "nice \(ThreadPriority.playbackNiceness) (real-time scheduling not permitted)"
            case .ordinary: "ordinary priority (neither real-time scheduling nor a raised nice level permitted: "
                + "a busy box may interrupt the music; see docs/audio-engine.md)"
            }
        }
    }

    /// Raises the calling (playback) thread as far as it is allowed: the backing track is what the
    /// whole room hears, and its buffer holds only tens of milliseconds. One or two system calls,
    /// no allocation: safe on the audio thread.
    public static func raiseCurrentThreadForPlayback() -> Outcome {
        #if os(Linux)
        var parameters = sched_param(sched_priority: playbackRealtime)
        if pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0 { return .realtime }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) <= playbackNiceness { return .raisedNice }
        return setpriority(which, 0, playbackNiceness) == 0 ? .raisedNice : .ordinary
        #else
        return .ordinary
        #endif
    }

    /// Lowers the calling thread to `niceness` (raising is not asked for: it needs privileges).
    /// Returns whether it took.
    @discardableResult
    public static func lowerCurrentThread(to niceness: Int32) -> Bool {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        // `who` 0 is the calling thread on Linux (NPTL), not the whole process. A thread that
        // already runs nicer (a niced server) is left as it is.
        if getpriority(which, 0) >= niceness { return true }
        return setpriority(which, 0, niceness) == 0
        #else
        return false
        #endif
    }
}
