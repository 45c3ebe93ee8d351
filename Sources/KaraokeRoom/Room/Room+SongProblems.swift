import RoomProtocol

/// Broken songs as each client sees them (`SongProblems`): hosts the reason with paths relative
/// to the library, guests and displays only that the song can't be played right now.
extension Room {
    var songProblems: SongProblems { SongProblems(root: catalog.libraryRoot) }

    /// A library page as `role` may read it: the songs' `error` for hosts, the guests' word otherwise.
    func libraryPage(_ songs: [SongSummary], for role: ClientRole?) -> [SongSummary] {
        songs.map { song in
            guard let error = song.error else { return song }
            var shown = song
            shown.error = role == .host ? songProblems.forHosts(error) : SongProblems.forGuests
            return shown
        }
    }

    /// An `error` event nobody asked for about a song: `forHosts` (paths made relative here) to
    /// host clients, `forOthers` to everyone else (nil: nothing).
    func reportSongProblem(code: String, forHosts: String, forOthers: String?) {
        let hostMessage = songProblems.forHosts(forHosts)
        for (client, session) in clients {
            guard let message = session.role == .host ? hostMessage : forOthers else { continue }
            sendError(to: client, code: code, message: message, command: nil, id: nil)
        }
    }

    /// Loads the queued song the room moves on to by itself (after a song); one that cannot be
    /// played now (its files changed since it was queued) is reported, as a refusal would be, and
    /// the room stops there.
    func loadQueuedSong(_ item: QueueItemPayload) -> Bool {
        do {
            try loadSong(item.songId, singer: item.requestedBy)
            return true
        } catch let error as RoomCommandError {
            logger.warning("queued song \(item.songId) skipped: \(error.message)")
            // Guests know the song by the title it was queued under.
            reportSongProblem(code: error.code, forHosts: error.message,
                              forOthers: error.guestMessage.map { _ in SongProblems.forGuests(title: item.title) })
        } catch {
            logger.warning("queued song \(item.songId) skipped: \(error)")
        }
        return false
    }
}
