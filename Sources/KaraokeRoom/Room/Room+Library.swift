import Dispatch
import EventServer
import Foundation
import RoomProtocol

/// The song library as clients see it: pages of search results, artists, and the index kept
/// up to date when the songs folder changes.
extension Room {
    func sendLibraryPage(_ query: LibraryQuery, to client: ClientID, requestId: Int?) {
        let started = MonotonicClock.now()
        var (total, songs) = songIndex.query(query)
        let elapsed = (MonotonicClock.now() - started) * 1000
        if let covers = options.covers {
            for index in songs.indices {
                songs[index].cover = songIndex.song(id: songs[index].id)?.coverPath.flatMap(covers.url(forCover:))
            }
        }
        songs = libraryPage(songs, for: clients[client]?.role)
        var page = LibraryPayload(songs: songs, total: total, librarySize: songIndex.count, offset: query.offset,
                                  query: query.text, id: requestId, elapsedMs: (elapsed * 100).rounded() / 100)
        page.indexing = libraryIndexing
        transport?.send(.library(page), to: client)
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

    /// Reads the library off the room's queue; meanwhile clients see how many songs were read
    /// (`state.libraryIndexing`, `library.indexing`), and the room plays and queues what it can.
    func indexLibraryInBackground() {
        libraryIndexing = 0
        let catalog = catalog
        DispatchQueue.global(qos: .utility).async { [self] in
            let room = self
            let started = MonotonicClock.now()
            let songs = catalog.index { read in
                room.queue.async {
                    guard room.libraryIndexing != nil else { return }
                    room.libraryIndexing = read
                    room.broadcastState()
                }
            }
            let read = MonotonicClock.now()
            let index = LibraryIndex(songs)
            let built = MonotonicClock.now()
            room.queue.async {
                room.logger.info("song library: \(songs.count) song(s) read in \(Int((read - started) * 1000)) ms, indexed for search in \(Int((built - read) * 1000)) ms")
                for song in songs { for warning in song.warnings { room.logger.warning("song \(song.id): \(warning)") } }
                if let problem = (catalog as? DirectorySongCatalog)?.cacheProblem { room.logger.warning("\(problem)") }
                room.libraryIndexing = nil
                room.libraryChanged(index, announce: false)
                room.startLibraryRefresher()
            }
        }
    }

    func libraryChanged(_ index: LibraryIndex, announce: Bool = true) {
        songIndex = index
        libraryVersion += 1
        if announce { logger.info("song library changed: \(index.count) song(s) now") }
        for song in index.songs where song.error != nil { logger.warning("song \(song.id): \(song.error ?? "")") }
        broadcastState()
    }
}
