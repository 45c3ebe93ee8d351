import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

/// What a song folder plays and shows: `#INSTRUMENTAL`/`#VOCALS` stems over the full mix, a MIDI
/// song's own file as its backing, and the `#BACKGROUND` picture.
@Suite struct BackingAndBackgroundLibraryTests {
    private func folder(_ files: [String: Data]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("songs-\(UUID().uuidString)")
        for (name, data) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return root
    }

    private let audio = Data([0xFF, 0xFB, 0x90, 0x00])
    private let picture = Data([0x89, 0x50, 0x4E, 0x47])

    private func ultrastar(_ tags: String) -> Data {
        Data("#TITLE:Song\n#ARTIST:Band\n\(tags)#BPM:300\n#GAP:1000\n: 0 4 0 La\n: 8 4 2 la\nE\n".utf8)
    }

    @Test func stemsWinOverTheFullMix() throws {
        let root = try folder([
            "song/song.txt": ultrastar("#MP3:Band - Song.mp3\n#INSTRUMENTAL:Band - Song [INSTR].mp3\n#VOCALS:Band - Song [VOC].mp3\n"),
            "song/Band - Song.mp3": audio, "song/Band - Song [INSTR].mp3": audio, "song/Band - Song [VOC].mp3": audio,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let entry = try #require(SongLibrary(directory: root.path).scan().first)
        #expect(entry.backingTrackPath?.hasSuffix("Band - Song [INSTR].mp3") == true)
        #expect(entry.vocalsPath?.hasSuffix("Band - Song [VOC].mp3") == true)
    }

    @Test func aMIDISongWithoutARecordingPlaysItsOwnFile() throws {
        let kar = Data(MIDIFixture.tune().bytes())
        let root = try folder(["alone/tune.kar": kar, "recorded/tune.kar": kar, "recorded/backing.ogg": audio])
        defer { try? FileManager.default.removeItem(at: root) }
        let entries = SongLibrary(directory: root.path).scan()
        #expect(entries.map(\.id) == ["alone", "recorded"])
        #expect(entries[0].backingTrackPath?.hasSuffix("alone/tune.kar") == true && entries[0].isPlayable)
        #expect(entries[1].backingTrackPath?.hasSuffix("recorded/backing.ogg") == true)
    }

    @Test func theBackgroundPictureIsFoundByTagOrName() throws {
        let root = try folder([
            "tagged/song.txt": ultrastar("#MP3:a.mp3\n#BACKGROUND:stage.png\n"), "tagged/a.mp3": audio, "tagged/stage.png": picture,
            "named/song.txt": ultrastar("#MP3:a.mp3\n"), "named/a.mp3": audio, "named/background.jpg": picture,
            "missing/song.txt": ultrastar("#MP3:a.mp3\n#BACKGROUND:gone.jpg\n"), "missing/a.mp3": audio,
            "notpicture/song.txt": ultrastar("#MP3:a.mp3\n#BACKGROUND:a.mp3\n"), "notpicture/a.mp3": audio,
            "collection/Band - One.txt": ultrastar("#MP3:Band - One.mp3\n"), "collection/Band - One.mp3": audio,
            "collection/Band - One [BG].jpg": picture, "collection/Band - One [CO].jpg": picture,
            "collection/Band - Two.txt": ultrastar("#MP3:Band - Two.mp3\n"), "collection/Band - Two.mp3": audio,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let byId = Dictionary(uniqueKeysWithValues: SongLibrary(directory: root.path).scan().map { ($0.id, $0) })
        #expect(byId["tagged"]?.backgroundPath?.hasSuffix("tagged/stage.png") == true)
        #expect(byId["named"]?.backgroundPath?.hasSuffix("named/background.jpg") == true)
        #expect(byId["missing"]?.backgroundPath == nil)
        #expect(byId["missing"]?.warnings.contains { $0.contains("#BACKGROUND 'gone.jpg' is not in the folder") } == true)
        #expect(byId["notpicture"]?.backgroundPath == nil && byId["notpicture"]?.isPlayable == true)
        #expect(byId["notpicture"]?.warnings.contains { $0.contains("is not a picture") } == true)
        let one = try #require(byId["collection/Band - One"])
        #expect(one.backgroundPath?.hasSuffix("Band - One [BG].jpg") == true)
        #expect(one.coverPath?.hasSuffix("Band - One [CO].jpg") == true, "the [BG] picture is not the cover")
        #expect(byId["collection/Band - Two"]?.backgroundPath == nil)
    }
}
