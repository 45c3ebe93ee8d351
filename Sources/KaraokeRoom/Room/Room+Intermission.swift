import EventServer

/// The pause between songs: when a song ends and the queue has another, the room loads it and
/// waits `pauseBetweenSongs` seconds (the display counts down, the score screen shows), then
/// starts it. The host's `play` starts it at once; any other transport command cancels the wait.
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
        intermissionEnds = nil
        guard current != nil, transportState == .stopped else { return }
        startPlaying()
        broadcastState()
    }

    func intermissionPayload() -> IntermissionPayload? {
        guard let ends = intermissionEnds, let songId = current?.entry.id else { return nil }
        return IntermissionPayload(songId: songId, endsIn: max(0, ((ends - MonotonicClock.now()) * 1000).rounded() / 1000),
                                   seconds: pauseBetweenSongs)
    }
}

extension ClientCommand {
    /// Commands that end the wait between songs (`play` then starts the song at once).
    var endsIntermission: Bool {
        switch self {
        case .play, .pause, .stop, .seek, .seekLine, .next, .previous: true
        case .queueAdd(_, _, let playNow): playNow
        default: false
        }
    }
}
