import EventServer
import Foundation
import KaraokeRoom
import Testing
import TestSupport

/// A broken song never shows a guest the server's file paths or the parser's complaint: guests
/// and displays read "can't be played right now"; hosts read the reason, with the song's path
/// relative to the library (`…/song.txt:5: missing required header #BPM` reached guests).
@Suite struct BrokenSongViewsTests {
    static let root = "/srv/karaoke/songs"
    static let brokenError = "\(root)/Broken/song.txt:5: missing required header #BPM"
    static let backing = "\(root)/Good/backing.ogg"

    static var catalog: FixedSongCatalog {
        FixedSongCatalog([
            CatalogEntry(id: "Good", song: TestSong.make(), error: nil, backingTrackPath: backing, duration: 12),
            CatalogEntry(id: "Broken", song: nil, error: brokenError, backingTrackPath: nil),
        ], libraryRoot: root)
    }

    @Test func guestsReadThatItCannotBePlayedHostsReadWhyWithoutTheServersPaths() throws {
        let player = GatedPlayer()
        let room = Room(player: player, catalog: Self.catalog, options: Room.Options(pin: RoomPin(TestRoomServer.pin)!, audio: true))
        let sent = SentEvents()
        room.start(transport: sent)
        defer { room.shutdown() }
        let handler = room.connectionHandler
        let (guest, display, host) = (ClientID(1), ClientID(2), ClientID(3))
        handler.clientConnected(ClientInfo(id: guest, peerAddress: "192.168.1.20"))
        handler.clientConnected(ClientInfo(id: display, peerAddress: "192.168.1.30"))
        handler.clientConnected(ClientInfo(id: host, peerAddress: "127.0.0.1"))
        handler.client(guest, sent: #"{"type":"hello","role":"guest","name":"Ann"}"#)
        handler.client(host, sent: #"{"type":"hello","role":"host","pin":"\#(TestRoomServer.pin)"}"#)
        #expect(waitUntil(timeout: 10) { sent.hellos(to: host).contains { $0.role == .host } })

        // The library lists it: to the guest as unplayable, to the host with the reason.
        for client in [guest, host] { handler.client(client, sent: #"{"type":"library","query":""}"#) }
        #expect(waitUntil(timeout: 10) { !sent.librarySongs(to: guest).isEmpty && !sent.librarySongs(to: host).isEmpty })
        #expect(sent.librarySongs(to: guest).first { $0.id == "Broken" }?.error == "can't be played right now")
        #expect(sent.librarySongs(to: host).first { $0.id == "Broken" }?.error == "Broken/song.txt:5: missing required header #BPM")

        // Asking for it: the guest is told it can't be played, the host why.
        handler.client(guest, sent: #"{"type":"queueAdd","songId":"Broken"}"#)
        handler.client(host, sent: #"{"type":"queueAdd","songId":"Broken","playNow":true}"#)
        #expect(waitUntil(timeout: 10) { !sent.errorMessages(to: guest).isEmpty && !sent.errorMessages(to: host).isEmpty })
        let guestRefusal = try #require(sent.errorMessages(to: guest).first)
        #expect(guestRefusal.code == "unreadableSong" && guestRefusal.message.hasSuffix("can't be played right now"), "\(guestRefusal)")
        let hostRefusal = try #require(sent.errorMessages(to: host).first)
        #expect(hostRefusal.code == "unreadableSong" && hostRefusal.message.contains("Broken/song.txt:5: missing required header #BPM"),
                "\(hostRefusal)")

        // A song whose audio fails to load: everyone hears of it, only hosts of the file.
        player.fail(Self.backing, "File contains data in an unknown format.")
        handler.client(host, sent: #"{"type":"queueAdd","songId":"Good","playNow":true}"#)
        #expect(waitUntil(timeout: 10) { sent.errorMessages(to: guest).contains { $0.code == "loadFailed" } })
        #expect(waitUntil(timeout: 10) { sent.errorMessages(to: host).contains { $0.code == "loadFailed" } })
        let guestLoad = try #require(sent.errorMessages(to: guest).first { $0.code == "loadFailed" })
        #expect(guestLoad.message == "“Test Tune” can't be played right now")
        #expect(sent.errorMessages(to: display).first { $0.code == "loadFailed" }?.message == guestLoad.message)
        let hostLoad = try #require(sent.errorMessages(to: host).first { $0.code == "loadFailed" })
        #expect(hostLoad.message.contains("Good/backing.ogg: File contains data in an unknown format."), "\(hostLoad)")

        // Nothing any client received names the server's folder or the parser's complaint.
        for client in [guest, display, host] {
            let leaked = sent.wireTexts(to: client).filter { $0.contains(Self.root) }
            #expect(leaked.isEmpty, "\(client): \(leaked)")
        }
        for client in [guest, display] {
            #expect(!sent.wireTexts(to: client).contains { $0.contains("#BPM") || $0.contains("unknown format") })
        }
    }
}

/// A song whose files broke after it was queued: when the room moves on to it by itself, the
/// host hears why (as a refusal would say) and the guests that it can't be played right now.
@Suite struct BrokenQueuedSongTests {
    /// Lists "Gone" as readable (as when it was queued) but reads it broken now.
    struct ChangedCatalog: SongCatalog {
        func entries() -> [CatalogEntry] {
            [CatalogEntry(id: "Good", song: TestSong.make(), error: nil, backingTrackPath: nil, duration: 12),
             CatalogEntry(id: "Gone", song: TestSong.make(), error: nil, backingTrackPath: nil, duration: 12)]
        }
        func entry(id: String) -> CatalogEntry? {
            id == "Gone" ? CatalogEntry(id: id, song: nil, error: BrokenSongViewsTests.brokenError, backingTrackPath: nil)
                : entries().first { $0.id == id }
        }
        var libraryRoot: String? { BrokenSongViewsTests.root }
    }

    @Test func theRoomMovingOnToABrokenSongTellsTheHostWhyAndGuestsThatItCannotBePlayed() throws {
        var options = Room.Options(pin: RoomPin(TestRoomServer.pin)!, audio: false)
        options.pauseBetweenSongs = 0
        let room = Room(player: ClockPlayer(), catalog: ChangedCatalog(), options: options)
        let sent = SentEvents()
        room.start(transport: sent)
        defer { room.shutdown() }
        let handler = room.connectionHandler
        let (guest, host) = (ClientID(1), ClientID(2))
        handler.clientConnected(ClientInfo(id: guest, peerAddress: "192.168.1.20"))
        handler.clientConnected(ClientInfo(id: host, peerAddress: "127.0.0.1"))
        handler.client(guest, sent: #"{"type":"hello","role":"guest","name":"Ann"}"#)
        handler.client(host, sent: #"{"type":"hello","role":"host","pin":"\#(TestRoomServer.pin)"}"#)
        #expect(waitUntil(timeout: 10) { sent.hellos(to: host).contains { $0.role == .host } })
        handler.client(guest, sent: #"{"type":"queueAdd","songId":"Gone"}"#)
        handler.client(host, sent: #"{"type":"queueAdd","songId":"Good","playNow":true}"#)
        #expect(waitUntil(timeout: 10) {
            sent.broadcasts.withLock { $0.contains { if case .state(let state) = $0 { state.songId == "Good" && state.transport == .playing && !state.loading } else { false } } }
        })
        handler.client(host, sent: #"{"type":"seek","position":11.8}"#)
        #expect(waitUntil(timeout: 10) { sent.errorMessages(to: host).contains { $0.code == "unreadableSong" } })
        #expect(waitUntil(timeout: 10) { sent.errorMessages(to: guest).contains { $0.code == "unreadableSong" } })
        let hostReason = try #require(sent.errorMessages(to: host).first { $0.code == "unreadableSong" })
        #expect(hostReason.message.contains("Broken/song.txt:5: missing required header #BPM"), "\(hostReason)")
        #expect(sent.errorMessages(to: guest).first { $0.code == "unreadableSong" }?.message == "“Test Tune” can't be played right now")
        for client in [guest, host] { #expect(!sent.wireTexts(to: client).contains { $0.contains(BrokenSongViewsTests.root) }) }
    }
}
