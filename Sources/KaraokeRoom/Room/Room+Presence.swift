extension Room {
    /// What the venue page shows of this room: the song loaded (title – artist) and whether
    /// it is busy (a song playing or paused) or free.
    public var presence: (nowPlaying: String?, busy: Bool) {
        queue.sync {
            let title = current.map { "\($0.song.metadata.title) – \($0.song.metadata.artist)" }
            return (title, transportState != .stopped)
        }
    }
}
