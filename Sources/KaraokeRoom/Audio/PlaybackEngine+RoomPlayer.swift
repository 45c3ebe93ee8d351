import AudioEngine

/// The PulseAudio engine has the room's control surface (play, pause, stop, seek, setKey,
/// setTempo, setLoop, position, isPlaying, outputLatency) already; loading is split so the room never waits
/// for a decode: `prepareTrack` decodes and resamples on the loader thread, and installing
/// is the engine's cheap `load(track:)` swap.
extension PlaybackEngine: RoomPlayer {
    public func prepare(backingTrack path: String?, duration: Double,
                        isCancelled: @escaping @Sendable () -> Bool) throws -> PreparedTrack {
        // A MIDI song without a soundfont comes back silent, with a warning for the host.
        let (source, warnings) = try TrackSource.prepare(backingTrack: path, duration: duration, sampleRate: sampleRate,
                                                         isCancelled: isCancelled)
        return PreparedTrack(duration: source.duration, warnings: warnings) { [self] in load(track: source) }
    }
}
