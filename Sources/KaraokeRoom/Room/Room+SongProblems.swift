import EventServer

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
}
