import AudioEngine

/// The PulseAudio engine already has exactly the room's surface (load, play, pause, stop,
/// seek, setKey, setTempo, setLoop, position, isPlaying), so the adapter is the conformance.
extension PlaybackEngine: RoomPlayer {}
