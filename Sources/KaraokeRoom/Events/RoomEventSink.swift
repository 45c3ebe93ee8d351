import EventServer

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
    /// Measure singer's microphone delay; report the result through `RoomEventSink`
    /// or throw a message for the client.
    func calibrate(singer: Int) throws
}
