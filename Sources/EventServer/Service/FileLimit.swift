#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit. Every connection is a file descriptor, so `serve` raises the
/// soft limit to the hard one at start and sizes its connection budget below it.
public enum FileLimit {
    /// Raises the soft limit to the hard limit (when allowed); returns the soft limit in force.
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// Connections the server may hold with `softLimit` descriptors: some are kept for files
    /// being served, songs, the database and the sound server; at most 4096.
    public static func connectionBudget(softLimit: Int) -> Int {
        max(16, min(4096, softLimit - 96))
    }
}
