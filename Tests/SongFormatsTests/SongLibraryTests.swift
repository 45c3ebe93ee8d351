import Foundation
import Testing
import SongFormats
import SongModel

@Suite struct SongLibraryTests {
    /// A scratch songs directory, removed when the test ends.
    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("songs-\(UUID().uuidString)")
        init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func write(_ relative: String, _ text: String) throws {
            let file = url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    @Test func scansFoldersAndFindsAudio() throws {
        let s = Scratch()
        try s.write("a-ultrastar/song.txt", "#TITLE:A\n#ARTIST:B\n#MP3:music.ogg\n#VOCALS:v.ogg\n#BPM:100\n: 0 4 0 la\nE\n")
        try s.write("a-ultrastar/music.ogg", "x")
        try s.write("a-ultrastar/v.ogg", "x")
        try s.write("a-ultrastar/cover.jpg", "x")
        try s.write("b-lrc/lyrics.lrc", "[ti:Lrc Song]\n[00:01.00]hello\n")
        try s.write("b-lrc/backing.ogg", "x")
        try s.write("b-lrc/vocals.ogg", "x")
        try s.write("c-manifest/words.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n")
        try s.write("c-manifest/track.flac", "x")
        try s.write("c-manifest/other.flac", "x")
        try s.write("c-manifest/song.json", #"{"lyrics": "words.vtt", "audio": "other.flac", "title": "Named", "artist": "Someone"}"#)
        try s.write("d-broken/song.txt", "#TITLE:A\n#ARTIST:B\n#MP3:a.ogg\n#BPM:100\nnonsense\n")
        try s.write("e-noaudio/song.txt", "#TITLE:A\n#ARTIST:B\n#MP3:missing.ogg\n#BPM:100\n: 0 4 0 la\nE\n")
        try s.write("f-empty/readme.md", "nothing")
        try s.write("g-flo-json/song.json", #"{"title": "Flo", "singer": "S", "file": "https://x/music.mp3", "lyrics": "[00:16:200]we wish\n[00:18:300]you"}"#)
        try s.write("g-flo-json/backing.wav", "x")
        try s.write(".hidden/song.txt", "x")

        let entries = SongLibrary(directory: s.url.path).scan()
        #expect(entries.map(\.id) == ["a-ultrastar", "b-lrc", "c-manifest", "d-broken", "e-noaudio", "f-empty", "g-flo-json"])
        #expect(entries[6].song?.metadata.title == "Flo")
        #expect(entries[6].song?.parts[0].lines.count == 2)
        #expect(entries[6].backingTrackPath?.hasSuffix("g-flo-json/backing.wav") == true)
        let a = entries[0]
        #expect(a.isPlayable)
        #expect(a.backingTrackPath?.hasSuffix("a-ultrastar/music.ogg") == true)
        #expect(a.vocalsPath?.hasSuffix("a-ultrastar/v.ogg") == true)
        #expect(a.coverPath?.hasSuffix("a-ultrastar/cover.jpg") == true)
        let b = entries[1]
        #expect(b.song?.metadata.title == "Lrc Song")
        #expect(b.backingTrackPath?.hasSuffix("b-lrc/backing.ogg") == true)
        #expect(b.vocalsPath?.hasSuffix("b-lrc/vocals.ogg") == true)
        let c = entries[2]
        #expect(c.song?.metadata.title == "Named")
        #expect(c.backingTrackPath?.hasSuffix("c-manifest/other.flac") == true)
        #expect(entries[3].song == nil)
        #expect(entries[3].error?.line == 5)
        #expect(entries[3].error?.path.hasSuffix("d-broken/song.txt") == true)
        #expect(entries[4].song != nil)
        #expect(entries[4].error?.message.contains("missing.ogg") == true)
        #expect(!entries[4].isPlayable)
        #expect(entries[5].error?.message.contains("no lyric file") == true)

        #expect(SongLibrary(directory: s.url.path).entry(id: "b-lrc")?.song?.metadata.title == "Lrc Song")
        #expect(SongLibrary(directory: s.url.path).entry(id: "../x") == nil)
        #expect(SongLibrary(directory: s.url.path).entry(id: "nope") == nil)
    }

    @Test func defaultDirectoryComesFromTheEnvironment() {
        #expect(SongLibrary.defaultDirectory(environment: [:]) == "songs")
        #expect(SongLibrary.defaultDirectory(environment: ["KARAOKE_SONGS": "/srv/songs"]) == "/srv/songs")
    }
}
