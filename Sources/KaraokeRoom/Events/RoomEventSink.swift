import RoomProtocol

/// Where the live singing pipeline publishes what it measures: `pitch` frames (any
/// thread, droppable), `lineScore` and `total` results, and `device` lost/back.
/// `Room` implements it; call it from a worker thread, never from an audio callback.
public protocol RoomEventSink: AnyObject, Sendable {
    func publishPitch(_ pitch: PitchPayload)
    func publishLineScore(_ score: LineScorePayload)
    func publishTotal(_ total: TotalPayload)
    func publishDevice(_ device: DevicePayload)
}

/// What the live pipeline needs to follow the room (song, seeks, singers, difficulty).
/// Called on the room's queue; implementations must not block.
public protocol RoomLiveSession: AnyObject, Sendable {
    func roomLoaded(_ entry: CatalogEntry, settings: RoomSettings)
    func roomSettingsChanged(_ settings: RoomSettings)
    func roomSeeked(to mediaSeconds: Double)
    func roomStopped()
    /// Measures the singer's microphone delay in the background and uses it from then on.
    /// Throws at once when it cannot start (no such microphone); otherwise `done` is called
    /// once, on any thread, with nil or the problem to report to whoever asked (a failed
    /// measurement, or one that is used but could not be stored).
    func calibrate(singer: Int, done: @escaping @Sendable ((any Error)?) -> Void) throws
    /// What the room's state shows about the singer's microphone (`seat` is the room's setting
    /// for that singer, if any); nil when the singer has no microphone. Called on the room's
    /// queue for every `state`: it must not wait for the session's work or the sound server.
    func microphone(singer: Int, seat: SingerPayload?) -> MicrophoneReport?
}
