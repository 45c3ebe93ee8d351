import EventServer
import RoomProtocol

/// The pause between songs: when a song ends and the queue has another, the room loads it and
/// waits `pauseBetweenSongs` seconds (the display counts down, the score screen shows), then
/// starts it. The host's `play` starts it at once; any other transport command cancels the wait.
/// A microphone calibration holds the wait: its clicks must be heard alone, so the song starts
/// once the calibration is over (done or failed), and the countdown says what it waits for.
extension Room {
    func beginIntermission() {
        // `loadSong` already stopped the player and the live session's runs of the song that ended.
        transportState = .stopped
        intermissionEnds = MonotonicClock.now() + pauseBetweenSongs
        logger.info("next song \(current?.entry.id ?? "-") starts in \(Int(pauseBetweenSongs)) s")
    }

    /// Called by the ticker: starts the waiting song once its pause is over.
    func endIntermissionWhenDue() {
        guard let ends = intermissionEnds, MonotonicClock.now() >= ends else { return }
        guard calibratingSinger == nil else { return }  // held; `calibrationFinished` calls again
        intermissionEnds = nil
        guard current != nil, transportState == .stopped else { return }
        startPlaying()
        broadcastState()
    }

    func intermissionPayload() -> IntermissionPayload? {
        guard let ends = intermissionEnds, let songId = current?.entry.id else { return nil }
        let heldBy = calibratingSinger.map { "singer \($0 + 1)'s microphone is being calibrated" }
        return IntermissionPayload(songId: songId, endsIn: max(0, ((ends - MonotonicClock.now()) * 1000).rounded() / 1000),
                                   seconds: pauseBetweenSongs, heldBy: heldBy)
    }
}

extension ClientCommand {
    /// Commands refused while a microphone is calibrated (they would start playback); refused,
    /// they leave the wait between songs as it was.
    var waitsForCalibration: Bool {
        switch self {
        case .play, .next, .previous: true
        case .queueAdd(_, _, let playNow): playNow
        default: false
        }
    }

    /// Commands that end the wait between songs (`play` then starts the song at once).
    var endsIntermission: Bool {
        switch self {
        case .play, .pause, .stop, .seek, .seekLine, .next, .previous: true
        case .queueAdd(_, _, let playNow): playNow
        default: false
        }
    }
}
