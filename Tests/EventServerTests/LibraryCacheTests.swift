import Foundation
@testable import KaraokeRoom
import Testing

@Suite("Library index cache: a restart reads only changed folders; changes are noticed")
struct LibraryCacheTests {
    func write(_ root: URL, _ relative: String, _ text: String) throws {
        let file = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func song(_ title: String) -> String { "#TITLE:\(title)\n#ARTIST:X\n#MP3:a.ogg\n#BPM:100\n: 0 4 0 la\nE\n" }

    @Test func theCacheIsUsedAndChangesAreRead() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try write(root, "songs/one/one.txt", song("One"))
        try write(root, "songs/two/two.txt", song("Two"))
        let cache = root.appendingPathComponent("index.json").path
        let first = try DirectorySongCatalog(directory: root.appendingPathComponent("songs").path, requireBackingTrack: false,
                                             cachePath: cache)
        #expect(first.index().map(\.title) == ["One", "Two"])
        #expect(FileManager.default.fileExists(atPath: cache))

        // A restart trusts the cache for an unchanged folder: prove it by doctoring the cached title.
        var file = try JSONDecoder().decode(LibraryIndexer.CacheFile.self, from: Data(contentsOf: URL(fileURLWithPath: cache)))
        file.folders[0].songs[0].title = "From the cache"
        try JSONEncoder().encode(file).write(to: URL(fileURLWithPath: cache))
        let second = try DirectorySongCatalog(directory: root.appendingPathComponent("songs").path, requireBackingTrack: false,
                                              cachePath: cache, fullWalkInterval: 3600)
        #expect(second.index().map(\.title) == ["From the cache", "Two"])
        #expect(second.refreshed() == nil, "nothing changed")

        // A new song folder and a rewritten one are noticed without a full walk.
        try write(root, "songs/three/three.txt", song("Three"))
        Thread.sleep(forTimeInterval: 0.02)
        try FileManager.default.removeItem(atPath: root.appendingPathComponent("songs/one/one.txt").path)
        try write(root, "songs/one/one.txt", song("One again"))
        let refreshed = try #require(second.refreshed())
        #expect(refreshed.map(\.title) == ["One again", "Three", "Two"])
    }
}

@Suite("Room library refresh: a song folder added while serving is listed without a restart")
struct RoomLibraryRefreshTests {
    @Test func aNewFolderShowsUpAndClientsAreTold() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("refresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ relative: String, _ title: String) throws {
            let file = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("#TITLE:\(title)\n#ARTIST:X\n#MP3:a.ogg\n#BPM:100\n: 0 4 0 la\nE\n".utf8).write(to: file)
        }
        try write("one/one.txt", "One")
        let catalog = try DirectorySongCatalog(directory: root.path, requireBackingTrack: false)
        let room = try TestRoomServer(loadSong: false, catalog: catalog) { $0.libraryRefreshInterval = 0.2 }
        defer { room.stop() }
        let client = try room.client()
        try client.sendText(#"{"type":"library","id":1}"#)
        #expect(try client.waitFor("library")?["total"] as? Int == 1)
        try write("Pop/Two/two.txt", "Two")
        let state = try #require(try client.waitFor("state", timeout: 10) { ($0["libraryVersion"] as? Int ?? 0) >= 1 })
        #expect(state["libraryVersion"] as? Int == 1)
        try client.sendText(#"{"type":"library","query":"two","id":2}"#)
        let page = try #require(try client.waitFor("library") { ($0["id"] as? Int) == 2 })
        #expect((page["songs"] as? [[String: Any]])?.first?["id"] as? String == "Pop/Two")
    }
}
