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

extension HostClock {
    /// Converts a wall-clock `timeval` (PulseAudio's timing timestamps) to host time.
    static func hostTime(fromRealtime tv: timeval) -> Double {
        var real = timespec()
        var mono = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        let offset = (Double(real.tv_sec) - Double(mono.tv_sec)) + (Double(real.tv_nsec) - Double(mono.tv_nsec)) * 1e-9
        return Double(tv.tv_sec) + Double(tv.tv_usec) * 1e-6 - offset
    }
}
