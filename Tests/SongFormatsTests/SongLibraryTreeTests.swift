import Foundation
import SongFormats
import Testing

@Suite("Song library tree: nested folders, collection folders, ids")
struct SongLibraryTreeTests {
    func write(_ root: URL, _ relative: String, _ text: String) throws {
        let file = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    @Test func findsSongsAtAnyDepthAndSeveralPerFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try write(root, "Pop/ABBA/Waterloo/song.txt", "#TITLE:Waterloo\n#ARTIST:ABBA\n#MP3:w.ogg\n#BPM:100\n: 0 4 0 la\nE\n")
        try write(root, "Pop/ABBA/Waterloo/w.ogg", "x")
        // A collection: several songs in one folder, each with its own audio and cover.
        try write(root, "Collection/A - One.txt", "#TITLE:One\n#ARTIST:A\n#MP3:A - One.ogg\n#BPM:100\n: 0 4 0 la\nE\n")
        try write(root, "Collection/A - One.ogg", "x")
        try write(root, "Collection/A - One [CO].jpg", "x")
        try write(root, "Collection/B - Two.lrc", "[ti:Two]\n[ar:B]\n[00:01.00]hello\n")
        try write(root, "Collection/B - Two.ogg", "x")
        // One song in two formats.
        try write(root, "demo/demo.txt", "#TITLE:Demo\n#ARTIST:D\n#MP3:backing.ogg\n#BPM:100\n: 0 4 0 la\nE\n")
        try write(root, "demo/demo.lrc", "[ti:Demo]\n[00:01.00]la\n")
        try write(root, "demo/backing.ogg", "x")
        let library = SongLibrary(directory: root.path)
        let entries = library.scan()
        #expect(entries.map(\.id) == ["Collection/A - One", "Collection/B - Two", "Pop/ABBA/Waterloo", "demo"])
        let one = entries[0]
        #expect(one.song?.metadata.title == "One")
        #expect(one.backingTrackPath?.hasSuffix("Collection/A - One.ogg") == true)
        #expect(one.coverPath?.hasSuffix("A - One [CO].jpg") == true)
        #expect(entries[1].backingTrackPath?.hasSuffix("Collection/B - Two.ogg") == true, "the other song's audio is not taken")
        #expect(entries[3].lyricsPath?.hasSuffix("demo.txt") == true)
        #expect(library.entry(id: "Collection/B - Two")?.song?.metadata.title == "Two")
        #expect(library.entry(id: "Pop/ABBA/Waterloo")?.isPlayable == true)
        #expect(library.entry(id: "Pop/../demo") == nil)
        #expect(library.entry(id: "Collection") == nil, "a collection folder is not itself a song")
    }
}

@Suite("Song library ids never lead out of the library")
struct SongLibraryIdSafetyTests {
    @Test func aLinkedFolderOutsideIsNotASong() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ids-\(UUID().uuidString)")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("song"), withIntermediateDirectories: true)
        try Data("#TITLE:Out\n#ARTIST:X\n#MP3:a.ogg\n#BPM:100\n: 0 4 0 la\nE\n".utf8)
            .write(to: outside.appendingPathComponent("song/song.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: outside)
        let library = SongLibrary(directory: root.path)
        #expect(library.scan().isEmpty, "the walk does not follow the link")
        #expect(library.entry(id: "link/song") == nil)
        #expect(library.entry(id: "link") == nil)
    }
}
