import Foundation
import Testing
@testable import SongFormats
#if canImport(Glibc)
import Glibc
#endif

/// Issue 12: what a song folder can do to whoever reads it.
@Suite struct SongFolderSafetyTests {
    let root = NSTemporaryDirectory() + "song-safety-\(UUID().uuidString)"

    static let ultraStar = """
        #TITLE:Safe
        #ARTIST:Tests
        #MP3:%@
        #BPM:120
        #GAP:0
        : 0 4 0 la
        : 4 4 2  la
        E

        """

    func song(_ id: String, mp3: String, extra: [String: [UInt8]] = [:]) throws -> String {
        let folder = root + "/" + id
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try String(format: Self.ultraStar, mp3).write(toFile: folder + "/song.txt", atomically: true, encoding: .utf8)
        for (name, bytes) in extra { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return folder
    }

    /// Runs `body` on its own thread and gives up after `seconds` (a hang fails, not blocks the suite).
    func finishes<T: Sendable>(within seconds: Double, _ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        Thread.detachNewThread {
            result = body()
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .success ? result : nil
    }

    /// A 16-bit mono 8 kHz WAV whose header promises `promised` frames while `present` follow.
    static func wav(promised: Int, present: Int) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var b = Array("RIFF".utf8) + le(36 + promised * 2, 4) + Array("WAVE".utf8)
        b += Array("fmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2) + le(8000, 4) + le(16000, 4) + le(2, 2) + le(16, 2)
        b += Array("data".utf8) + le(promised * 2, 4) + [UInt8](repeating: 0, count: present * 2)
        return b
    }

    @Test func aFIFONamedLikeTheBackingTrackIsRefusedNotOpened() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try song("pipe", mp3: "backing.ogg")
        #expect(mkfifo(folder + "/backing.ogg", 0o644) == 0)
        let entries = finishes(within: 10) { SongLibrary(directory: root).scan() }
        let entry = try #require(entries?.first, "scanning a folder with a FIFO must not hang")
        let error = try #require(entry.error)
        #expect("\(error)".contains("backing.ogg"))
        #expect("\(error)".contains("FIFO"))
        #expect(!entry.isPlayable)
    }

    @Test func aFIFOAsTheLyricFileIsRefusedNotOpened() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/lyricpipe"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/song.txt", 0o644) == 0)
        let entries = finishes(within: 10) { SongLibrary(directory: root).scan() }
        let error = try #require(entries?.first?.error)
        #expect("\(error)".contains("FIFO"))
    }

    @Test func aRelativePathOutOfTheSongFolderIsRefusedWithFileAndLine() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try song("escape", mp3: "../../../../etc/passwd", extra: ["backing.wav": Self.wav(promised: 800, present: 800)])
        let entry = try #require(SongLibrary(directory: root).scan().first)
        let error = try #require(entry.error, "the song must not silently play another file either")
        #expect(error.path == folder + "/song.txt")
        #expect(error.line == 3)
        #expect("\(error)".hasPrefix(folder + "/song.txt:3: "))
        #expect(error.message.contains("outside the song library"))
        #expect(entry.backingTrackPath == nil)
    }

    @Test func aSymbolicLinkOutOfTheSongLibraryIsRefused() throws {
        let outsideFolder = NSTemporaryDirectory() + "outside-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outsideFolder)
        }
        let outside = outsideFolder + "/outside.wav"
        try FileManager.default.createDirectory(atPath: outsideFolder, withIntermediateDirectories: true)
        try Data(Self.wav(promised: 800, present: 800)).write(to: URL(fileURLWithPath: outside))
        let folder = try song("link", mp3: "linked.wav")
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked.wav", withDestinationPath: outside)
        let entry = try #require(SongLibrary(directory: root).entry(id: "link"))
        #expect(entry.error?.line == 3)
        #expect(entry.backingTrackPath == nil)
    }

    /// Files found by their names alone (no tag names them) are held to the library too: a song
    /// pack unpacked from an archive may carry links to anything the server can read.
    @Test func conventionalFilesLinkedOutOfTheLibraryAreNotUsed() throws {
        let outsideFolder = NSTemporaryDirectory() + "outside-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outsideFolder)
        }
        try FileManager.default.createDirectory(atPath: outsideFolder, withIntermediateDirectories: true)
        let secret = outsideFolder + "/secret"
        try Data("not for guests".utf8).write(to: URL(fileURLWithPath: secret))
        let wav = outsideFolder + "/outside.wav"
        try Data(Self.wav(promised: 80000, present: 80000)).write(to: URL(fileURLWithPath: wav))
        let link = { (folder: String, name: String, target: String) in
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: target)
        }

        // Cover, video, background and vocal guide: the song plays without them, with a warning each.
        let extras = try song("extras", mp3: "backing.wav", extra: ["backing.wav": Self.wav(promised: 80000, present: 80000)])
        for name in ["cover.jpg", "video.mp4", "background.png"] { try link(extras, name, secret) }
        try link(extras, "vocals.wav", wav)
        let entry = try #require(SongLibrary(directory: root).entry(id: "extras"))
        #expect(entry.isPlayable)
        #expect(entry.coverPath == nil && entry.videoPath == nil && entry.backgroundPath == nil && entry.vocalsPath == nil)
        for name in ["cover.jpg", "video.mp4", "background.png", "vocals.wav"] {
            #expect(entry.warnings.contains { $0.contains(extras + "/" + name) && $0.contains("outside the song library") },
                    "\(name): \(entry.warnings)")
        }

        // A backing track found by convention: the song cannot play, and says why.
        let backing = root + "/backing-link"
        try FileManager.default.createDirectory(atPath: backing, withIntermediateDirectories: true)
        try String(format: Self.ultraStar, "").write(toFile: backing + "/song.txt", atomically: true, encoding: .utf8)
        try link(backing, "backing.wav", wav)
        let noBacking = try #require(SongLibrary(directory: root).entry(id: "backing-link"))
        #expect(noBacking.backingTrackPath == nil)
        #expect(noBacking.error?.path == backing + "/backing.wav")
        #expect(noBacking.error?.message.contains("outside the song library") == true)

        // The lyric file itself, a link to a song elsewhere: not read.
        let lyricFolder = root + "/lyric-link"
        try FileManager.default.createDirectory(atPath: lyricFolder, withIntermediateDirectories: true)
        try String(format: Self.ultraStar, "backing.wav").write(toFile: outsideFolder + "/song.txt", atomically: true, encoding: .utf8)
        try link(lyricFolder, "song.txt", outsideFolder + "/song.txt")
        try Data(Self.wav(promised: 80000, present: 80000)).write(to: URL(fileURLWithPath: lyricFolder + "/backing.wav"))
        let lyric = try #require(SongLibrary(directory: root).entry(id: "lyric-link"))
        #expect(lyric.song == nil)
        #expect(lyric.error?.path == lyricFolder + "/song.txt")
        #expect(lyric.error?.message.contains("outside the song library") == true)
    }

    @Test func aSiblingFolderInsideTheLibraryMayShareItsAudio() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try song("solo", mp3: "backing.wav", extra: ["backing.wav": Self.wav(promised: 80000, present: 80000)])
        _ = try song("duet", mp3: "../solo/backing.wav")
        let entry = try #require(SongLibrary(directory: root).entry(id: "duet"))
        #expect(entry.error == nil)
        #expect(entry.backingTrackPath?.hasSuffix("/solo/backing.wav") == true)
    }

    @Test func aFileInsideTheFolderStillPlays() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try song("fine", mp3: "sub/../backing.wav", extra: ["backing.wav": Self.wav(promised: 80000, present: 80000)])
        let entry = try #require(SongLibrary(directory: root).entry(id: "fine"))
        #expect(entry.error == nil)
        #expect(entry.isPlayable)
        #expect(entry.warnings.isEmpty)
    }

    @Test func aTruncatedWAVIsAWarningNamingBothLengths() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try song("cut", mp3: "backing.wav", extra: ["backing.wav": Self.wav(promised: 8000 * 180, present: 8000 * 5 / 2)])
        let entry = try #require(SongLibrary(directory: root).entry(id: "cut"))
        #expect(entry.isPlayable, "a cut track still plays what it has")
        let warning = try #require(entry.warnings.first)
        #expect(warning.contains("backing.wav"))
        #expect(warning.contains("180.0 s") && warning.contains("2.5 s"))
    }

    /// espeak-ng --stdout writes 0x7FFFF000 as the data size: "unknown", not a 12-hour promise.
    @Test func aStreamedWAVPlaceholderLengthIsNoWarning() {
        var streamed = Self.wav(promised: 800, present: 800)
        streamed.replaceSubrange(40..<44, with: [0x00, 0xF0, 0xFF, 0x7F])
        #expect(AudioTruncationProbe.wav(streamed, fileSize: UInt64(streamed.count)) == nil)
        let cut = Self.wav(promised: 8000, present: 800)
        #expect(AudioTruncationProbe.wav(cut, fileSize: UInt64(cut.count)) != nil)
    }

    @Test func oggStreamsWithAndWithoutTheirEndOfStreamPage() {
        func page(flags: UInt8) -> [UInt8] { Array("OggS".utf8) + [0, flags] + [UInt8](repeating: 0, count: 21) + [0] }
        #expect(AudioTruncationProbe.ogg(tail: page(flags: 2) + page(flags: 0) + page(flags: 4)) == nil)
        #expect(AudioTruncationProbe.ogg(tail: page(flags: 2) + page(flags: 0))?.contains("cut short") == true)
    }
}
