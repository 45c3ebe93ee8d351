import Dispatch
import EventServer
import Foundation

/// The song library as clients see it: pages of search results, artists, and the index kept
/// up to date when the songs folder changes.
extension Room {
    func sendLibraryPage(_ query: LibraryQuery, to client: ClientID, requestId: Int?) {
        let started = MonotonicClock.now()
        let (total, songs) = songIndex.query(query)
        let elapsed = (MonotonicClock.now() - started) * 1000
        transport?.send(.library(LibraryPayload(songs: songs, total: total, librarySize: songIndex.count, offset: query.offset,
                                                query: query.text, id: requestId, elapsedMs: (elapsed * 100).rounded() / 100)),
                        to: client)
    }

    func sendArtists(letter: String?, to client: ClientID) {
        transport?.send(.artists(songIndex.artists(letter: letter)), to: client)
    }

    /// Checks the songs folder every `libraryRefreshInterval` seconds off the room's queue; a
    /// changed library is indexed there too and swapped in (clients see `state.libraryVersion`).
    func startLibraryRefresher() {
        guard options.libraryRefreshInterval > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + options.libraryRefreshInterval, repeating: options.libraryRefreshInterval,
                       leeway: .milliseconds(500))
        timer.setEventHandler { [weak self, catalog] in
            guard let songs = catalog.refreshed() else { return }
            let index = LibraryIndex(songs)
            guard let room = self else { return }
            room.queue.async { room.libraryChanged(index) }
        }
        timer.resume()
        libraryRefresher = timer
    }

    func libraryChanged(_ index: LibraryIndex) {
        songIndex = index
        libraryVersion += 1
        logger.info("song library changed: \(index.count) song(s) now")
        for song in index.songs where song.error != nil { logger.warning("song \(song.id): \(song.error ?? "")") }
        broadcastState()
    }
}
