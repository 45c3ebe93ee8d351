#if canImport(Glibc)
import Glibc
#endif

/// Scheduling niceness for the calling thread. Linux applies `nice` per thread, so a worker can
/// step back without touching the rest of the process.
public enum ThreadPriority {
    /// Pitch detection and other analysis: behind playback. When the CPU is short (many phones,
    /// a slow box) the backing track keeps playing and the analysis lags instead; the played
    /// sound is what the whole room hears, a late pitch frame only one singer's bar.
    public static let analysis: Int32 = 5

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
