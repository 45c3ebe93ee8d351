@testable import AudioEngine

extension PlaybackRenderer {
    /// A renderer playing `track` from its start, with vocal reduction and key as given: what
    /// the engine's callback would play, without PulseAudio.
    static func playing(_ track: TrackSource, reduce: Bool, key: Int = 0) -> PlaybackRenderer {
        let transport = Transport()
        transport.vocalReduction.store(reduce, ordering: .releasing)
        transport.key.store(key, ordering: .releasing)
        let renderer = PlaybackRenderer(sampleRate: track.sampleRate, clock: PlaybackClock(), transport: transport)
        renderer.track = track
        renderer.trackChanged()
        transport.request(.playing)
        return renderer
    }

    /// The next `frames` output frames (interleaved stereo), rendered `block` frames at a time.
    func renderInterleaved(frames: Int, block: Int = 960) -> [Float] {
        var out = [Float](repeating: 0, count: 2 * frames)
        out.withUnsafeMutableBufferPointer { p in
            var at = 0
            while at < frames {
                let n = min(block, frames - at)
                render(into: p.baseAddress! + 2 * at, frames: n)
                at += n
            }
        }
        return out
    }
}
