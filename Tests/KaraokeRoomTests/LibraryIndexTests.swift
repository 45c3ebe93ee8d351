import Foundation
@testable import KaraokeRoom
import RoomProtocol
import Testing

@Suite("Library index: folded search, ranking, paging, filters, artists, one song in several formats")
struct LibraryIndexTests {
    static let songs: [IndexedSong] = [
        IndexedSong(id: "halo", title: "Halo", artist: "Beyoncé", language: "English", year: 2008, duration: 260,
                    hasNotes: true, format: "ultraStar"),
        IndexedSong(id: "halo-lrc", title: "Halo", artist: "Beyonce", language: "English", format: "lrc"),
        IndexedSong(id: "waterloo", title: "Waterloo", artist: "ABBA", language: "English", year: 1974, hasNotes: true,
                    format: "ultraStar"),
        IndexedSong(id: "sos", title: "SOS", artist: "ABBA", year: 1975, hasNotes: true, format: "ultraStar"),
        IndexedSong(id: "abba-song", title: "A Song for ABBA", artist: "Tribute Band", year: 2001, format: "lrc"),
        IndexedSong(id: "duet", title: "Don't Go Breaking My Heart", artist: "Elton John", language: "English", duet: true,
                    hasNotes: true, format: "ultraStar"),
        IndexedSong(id: "etre", title: "Être là", artist: "Éric Lapointe", language: "French", hasNotes: true, format: "ultraStar"),
        IndexedSong(id: "broken", title: "broken", artist: "", error: "no lyric file"),
    ]

    @Test func searchFoldsCaseAndAccentsAndNeedsEveryWord() {
        let index = LibraryIndex(Self.songs)
        #expect(index.query(LibraryQuery(text: "beyonce")).songs.map(\.id) == ["halo"])
        #expect(index.query(LibraryQuery(text: "ETRE lapointe")).songs.map(\.id) == ["etre"])
        // "abba song": every word must match somewhere in title + artist.
        let abba = index.query(LibraryQuery(text: "abba song")).songs.map(\.id)
        #expect(abba == ["abba-song"])
        #expect(index.query(LibraryQuery(text: "abba water")).songs.map(\.id) == ["waterloo"])
        // Whole-word hits tie (title or artist); then by title.
        #expect(index.query(LibraryQuery(text: "abba")).songs.map(\.id) == ["abba-song", "sos", "waterloo"])
        #expect(index.query(LibraryQuery(text: "wat")).songs.map(\.id) == ["waterloo"], "a word start matches")
        #expect(index.query(LibraryQuery(text: "zzz")).total == 0)
    }

    @Test func oneSongInTwoFormatsIsListedOnceWithBoth() {
        let index = LibraryIndex(Self.songs)
        let halo = index.query(LibraryQuery(text: "halo")).songs
        #expect(halo.count == 1)
        #expect(halo.first?.id == "halo", "the version with notes is the one played")
        #expect(halo.first?.formats == ["ultraStar", "lrc"])
        #expect(halo.first?.versions == ["halo-lrc"])
        #expect(index.count == 7)
        #expect(index.song(id: "halo-lrc")?.format == "lrc", "the other version stays queueable by id")
    }

    @Test func pagesCountFiltersAndSorts() {
        let index = LibraryIndex(Self.songs)
        let first = index.query(LibraryQuery(sort: .title, offset: 0, limit: 3))
        #expect(first.total == 7)
        #expect(first.songs.map(\.id) == ["abba-song", "broken", "duet"])
        #expect(index.query(LibraryQuery(sort: .title, offset: 3, limit: 3)).songs.map(\.id) == ["etre", "halo", "sos"],
                "Être sorts as etre")
        #expect(index.query(LibraryQuery(sort: .title, offset: 6, limit: 3)).songs.map(\.id) == ["waterloo"])
        #expect(index.query(LibraryQuery(duet: true)).songs.map(\.id) == ["duet"])
        #expect(index.query(LibraryQuery(hasNotes: false)).songs.map(\.id) == ["abba-song", "broken"])
        #expect(index.query(LibraryQuery(language: "french")).songs.map(\.id) == ["etre"])
        #expect(index.query(LibraryQuery(artist: "abba", sort: .year)).songs.map(\.id) == ["waterloo", "sos"])
        #expect(index.query(LibraryQuery(letter: "e", sort: .title)).songs.map(\.id) == ["duet", "etre"])
    }

    @Test func artistsByLetterWithCounts() {
        let artists = LibraryIndex(Self.songs).artists(letter: nil)
        #expect(artists.letters == ["A", "B", "E", "T"])
        #expect(artists.artists.map(\.name) == ["ABBA", "Beyoncé", "Elton John", "Éric Lapointe", "Tribute Band"])
        #expect(artists.artists.first?.songs == 2)
        #expect(LibraryIndex(Self.songs).artists(letter: "E").artists.map(\.name) == ["Elton John", "Éric Lapointe"])
    }
}

@Suite("Song queue: round-robin by singer, folding, host order")
struct FairQueueTests {
    func add(_ queue: inout SongQueue, _ song: String, _ singer: String?) {
        _ = queue.insertFairly(songId: song, title: song, artist: "", requestedBy: singer, owner: singer, duration: 100)
    }

    @Test func threeGuestsQueueingThreeTwoAndOneAlternate() {
        var queue = SongQueue()
        for song in ["a1", "a2", "a3"] { add(&queue, song, "Ann") }
        for song in ["b1", "b2"] { add(&queue, song, "bob") }
        add(&queue, "c1", "Cy")
        #expect(queue.items.map(\.songId) == ["a1", "b1", "c1", "a2", "b2", "a3"])
        #expect(queue.index(of: "a2", singer: "ANN ") == 3, "the singer's name is compared case-folded and trimmed")
        #expect(queue.index(of: "a2", singer: "Bob") == nil)
    }

    @Test func theHostsOrderStandsAndNewRequestsFitAroundIt() {
        var queue = SongQueue()
        add(&queue, "a1", "Ann")
        add(&queue, "b1", "Bob")
        queue.move(itemId: queue.items[1].itemId, to: 0)
        #expect(queue.items.map(\.songId) == ["b1", "a1"])
        add(&queue, "a2", "Ann")
        add(&queue, "c1", "Cy")
        #expect(queue.items.map(\.songId) == ["b1", "a1", "c1", "a2"])
        _ = queue.popFirst()
        add(&queue, "b2", "Bob")
        #expect(queue.items.map(\.songId) == ["a1", "c1", "b2", "a2"])
    }
}
