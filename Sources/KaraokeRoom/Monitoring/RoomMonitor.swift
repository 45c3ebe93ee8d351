/// "Hear yourself" at the level the sound server works at: one microphone source routed to a
/// sink. `AudioEngine.MicMonitor` (PulseAudio `module-loopback`) is the implementation `serve`
/// uses (`Audio/MicMonitor+RoomMonitor.swift`); tests use a recording one.
/// Calls may wait for the sound server: `SingerMonitoring` makes them on its own queue, never
/// on the room's.
public protocol RoomMonitor: AnyObject, Sendable {
    /// Starts hearing `source` on `sink` (nil = default sink) about `latency` seconds late;
    /// enabling a source that is already enabled does nothing. Throws when the sound server
    /// refuses it now; then the source is not enabled.
    func enable(source: String, sink: String?, latency: Double) throws
    /// Stops hearing `source` (nothing happens if it was not enabled).
    func disable(source: String)
    /// Registers who hears about an enabled source that stops being heard by itself (`heard`
    /// false: its microphone, the speakers or the sound server went away) and is heard again
    /// (true) once they are back; the source stays enabled meanwhile. Calls come in order,
    /// never on the room's queue, and never for a source after `disable(source:)` returned.
    func observe(_ handler: @escaping @Sendable (_ source: String, _ heard: Bool) -> Void)
}
