extension Double {
    /// These seconds as the milliseconds the room's `state` reports: 0.1 ms steps, since finer
    /// digits of a latency reading are noise.
    var stateMilliseconds: Double { (self * 10_000).rounded() / 10 }
}
