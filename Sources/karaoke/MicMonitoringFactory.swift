import AudioEngine
import KaraokeRoom
import Logging

/// Builds the room's mic monitoring ("hear yourself") on PulseAudio's `module-loopback`
/// (`AudioEngine.MicMonitor`): singer i's microphone is the source live scoring opened for
/// singer i (the default source is passed as `@DEFAULT_SOURCE@`), heard on the sink the
/// backing track plays to. Nil (with a warning) when PulseAudio cannot be reached.
enum MicMonitoringFactory {
    static func make(sources: [String?], sink: String?, latencyMs: Double, logger: Logger) -> SingerMonitoring? {
        do {
            return SingerMonitoring(monitor: try MicMonitor(), sources: sources.map { $0 ?? "@DEFAULT_SOURCE@" },
                                    sink: sink, latency: latencyMs / 1000)
        } catch {
            logger.warning("mic monitoring unavailable: \(error)")
            return nil
        }
    }
}
