/// The backing track as the room plays it, rendered offline: the same `PlaybackRenderer` the
/// engine's write callback runs (Rubber Band key and tempo change, the fade-in at play), from
/// media time 0 to the track's end (vocal-reduced when the room reduced it), mono-mixed like
/// `RenderedOutputTap`.
/// `karaoke score` uses it as the bleed suppressor's reference for a recording made in the room.
public enum PlayedBacking {
    /// Mono samples at the track's rate: output frame `i` is what the speakers were fed `i`
    /// frames after pressing play at 0 with this key and tempo.
    public static func render(_ track: TrackSource, keySemitones: Int = 0, tempo: Double = 1, vocalReduction: Bool = false) -> [Float] {
        renderChannels(track, keySemitones: keySemitones, tempo: tempo, vocalReduction: vocalReduction).reference
    }

    /// The mono reference (as `render`) and the output's side (L − R) / 2, frame by frame, as
    /// `RenderedOutputTap` records them: the bleed suppressor fits a microphone from both, since
    /// it hears the two speakers in its own ratio (with vocal reduction they play the side in
    /// anti-phase, and no mono reference matches it and the bass at once).
    public static func renderChannels(_ track: TrackSource, keySemitones: Int = 0, tempo: Double = 1,
                                      vocalReduction: Bool = false) -> (reference: [Float], side: [Float]) {
        let transport = Transport()
        transport.vocalReduction.store(vocalReduction, ordering: .releasing)
        transport.key.store(min(max(keySemitones, PlaybackEngine.keyRange.lowerBound), PlaybackEngine.keyRange.upperBound), ordering: .releasing)
        transport.tempo = min(max(tempo, PlaybackEngine.tempoRange.lowerBound), PlaybackEngine.tempoRange.upperBound)
        let renderer = PlaybackRenderer(sampleRate: track.sampleRate, clock: PlaybackClock(), transport: transport)
        renderer.track = track
        renderer.trackChanged()
        transport.request(.playing)
        let block = 4096
        // The track's length at this tempo, plus a second for the stretcher's tail.
        let limit = Int(Double(track.frames) / transport.tempo) + Int(track.sampleRate) + block
        var out: [Float] = [], side: [Float] = []
        out.reserveCapacity(limit)
        side.reserveCapacity(limit)
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: 2 * block)
        defer { interleaved.deallocate() }
        while out.count < limit {
            renderer.render(into: interleaved, frames: block)
            for i in 0..<block {
                let left = interleaved[2 * i], right = interleaved[2 * i + 1]
                out.append(RenderedOutputTap.referenceSample(left: left, right: right, centreCancelled: vocalReduction))
                side.append(RenderedOutputTap.sideSample(left: left, right: right))
            }
            if transport.requestedState == .stopped { break }
        }
        return (out, side)
    }
}
