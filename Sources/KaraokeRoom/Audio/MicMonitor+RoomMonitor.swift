import AudioEngine

/// `MicMonitor` already has the room's surface (enable/disable per source), so the adapter is the conformance.
extension MicMonitor: RoomMonitor {}
