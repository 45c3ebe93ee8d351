import Foundation
import Testing
import SongFormats
import SongModel

/// MP3+G pairs and background videos in song folders.
@Suite struct MediaLibraryTests {
    /// `count` packets: a palette load first, then empty subcode.
    private func cdg(packets count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: count * 24)
        bytes[0] = 0x09
        bytes[1] = 30
        return Data(bytes)
    }

    private func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("songs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    @Test func aCDGBesideAnMP3IsAShownNotScoredSong() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let discs = root.appendingPathComponent("discs")
        try FileManager.default.createDirectory(at: discs, withIntermediateDirectories: true)
        for name in ["Some Band - First Song", "Other Band - Second Song"] {
            try cdg(packets: 600).write(to: discs.appendingPathComponent("\(name).cdg"))
            try Data([0xFF, 0xFB, 0x90, 0x00]).write(to: discs.appendingPathComponent("\(name).mp3"))
        }
        let entries = SongLibrary(directory: root.path).scan()
        #expect(entries.map(\.id) == ["discs/Other Band - Second Song", "discs/Some Band - First Song"])
        let first = try #require(entries.last)
        let song = try #require(first.song)
        #expect(song.source.format == .cdg)
        #expect(song.metadata.artist == "Some Band" && song.metadata.title == "First Song")
        #expect(song.metadata.lengthSeconds == 2.0)
        #expect(!song.hasNotes)
        #expect(first.lyricsPath?.hasSuffix("Some Band - First Song.cdg") == true)
        #expect(first.backingTrackPath?.hasSuffix("Some Band - First Song.mp3") == true)
    }

    @Test func aFileWithoutGraphicsPacketsIsNotCDG() throws {
        #expect(throws: SongFileError.self) { try CDGReader.read(bytes: [UInt8](repeating: 0, count: 240), path: "x.cdg") }
        #expect(throws: SongFileError.self) { try CDGReader.read(bytes: [9, 30], path: "x.cdg") }
        let partial = try CDGReader.read(bytes: [UInt8](cdg(packets: 2)) + [9, 9, 9], path: "y.cdg")
        #expect(partial.warnings.count == 1)
        #expect(throws: SongFileError.self) {
            try CDGReader.read(bytes: [UInt8](cdg(packets: 2)) + [9, 9, 9], path: "y.cdg", mode: .strict)
        }
    }

    @Test func videoIsWhatTheSongNamesElseVideoDotAnything() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let named = root.appendingPathComponent("named"), conventional = root.appendingPathComponent("conventional")
        let missing = root.appendingPathComponent("missing")
        for dir in [named, conventional, missing] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        let song = { (video: String) in "#TITLE:T\n#ARTIST:A\n#MP3:song.ogg\n\(video)#BPM:300\n#GAP:0\n: 0 10 0 la\nE\n" }
        try song("#VIDEO:clip.mp4\n#VIDEOGAP:1.5\n").write(to: named.appendingPathComponent("song.txt"), atomically: true, encoding: .utf8)
        try Data([0]).write(to: named.appendingPathComponent("clip.mp4"))
        try song("").write(to: conventional.appendingPathComponent("song.txt"), atomically: true, encoding: .utf8)
        try Data([0]).write(to: conventional.appendingPathComponent("video.webm"))
        try song("#VIDEO:gone.mp4\n").write(to: missing.appendingPathComponent("song.txt"), atomically: true, encoding: .utf8)
        for dir in [named, conventional, missing] { try Data([0]).write(to: dir.appendingPathComponent("song.ogg")) }

        let entries = Dictionary(uniqueKeysWithValues: SongLibrary(directory: root.path).scan().map { ($0.id, $0) })
        #expect(entries["named"]?.videoPath?.hasSuffix("named/clip.mp4") == true)
        #expect(entries["named"]?.song?.metadata.videoGapSeconds == 1.5)
        #expect(entries["conventional"]?.videoPath?.hasSuffix("conventional/video.webm") == true)
        #expect(entries["missing"]?.videoPath == nil)
        #expect(entries["missing"]?.error == nil)
        #expect(entries["missing"]?.warnings.contains { $0.contains("#VIDEO 'gone.mp4' is not in the folder") } == true)

        // A collection folder: each song's video is the one named like it.
        let collection = root.appendingPathComponent("collection")
        try FileManager.default.createDirectory(at: collection, withIntermediateDirectories: true)
        for name in ["A - One", "B - Two"] {
            try song("").replacingOccurrences(of: "song.ogg", with: "\(name).ogg")
                .write(to: collection.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
            try Data([0]).write(to: collection.appendingPathComponent("\(name).ogg"))
        }
        try Data([0]).write(to: collection.appendingPathComponent("B - Two.mp4"))
        let songs = Dictionary(uniqueKeysWithValues: SongLibrary(directory: root.path).scan().map { ($0.id, $0) })
        #expect(songs["collection/A - One"]?.videoPath == nil)
        #expect(songs["collection/B - Two"]?.videoPath?.hasSuffix("collection/B - Two.mp4") == true)
    }
}
