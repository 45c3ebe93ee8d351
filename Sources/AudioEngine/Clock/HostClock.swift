import Glibc

/// The monotonic clock every audio time stamp is expressed in (seconds since boot),
/// so capture stamps, playback timing and calibration can be compared directly.
public enum HostClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
