/// "Hear yourself" at the level the sound server works at: one microphone source routed to a
/// sink. `AudioEngine.MicMonitor` (PulseAudio `module-loopback`) is the implementation `serve`
/// uses (`Audio/MicMonitor+RoomMonitor.swift`); tests use a recording one.
/// Calls may wait for the sound server: `SingerMonitoring` makes them on its own queue, never
/// on the room's.
public protocol RoomMonitor: AnyObject, Sendable {
    /// Starts hearing `source` on `sink` (nil = default sink) about `latency` seconds late;
    /// enabling a source that is already monitored does nothing.
    func enable(source: String, sink: String?, latency: Double) throws
    /// Stops hearing `source` (nothing happens if it was not monitored).
    func disable(source: String)
}
