import AudioEngine

/// A playback engine on the test daemon's `speaker` with a track loaded (stopped at 0), and a
/// recorder on `speaker.monitor` to check what was actually played.
final class SpeakerRig {
    let engine: PlaybackEngine
    let recorder: MonitorRecorder

    init(track samples: [Float], name: String) throws {
        let path = try TestSignals.writeTemp(samples, name: name)
        engine = try PlaybackEngine(configuration: .init(device: "speaker"))
        do {
            recorder = try MonitorRecorder(source: "speaker.monitor")
            try engine.load(backingTrack: path, duration: 0)
        } catch {
            engine.close()
            throw error
        }
    }

    func close() {
        recorder.close()
        engine.close()
    }
}
