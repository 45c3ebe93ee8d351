import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

/// Song folders holding only one of the new formats are found by the library.
@Suite struct NewFormatLibraryTests {
    @Test func foldersWithSubtitleOrMIDIFilesAreSongs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("songs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let formats = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/songs/formats")
        for (folder, file) in [("srt", "paper-boats.srt"), ("ass", "paper-boats.ass"), ("ttml", "paper-boats.ttml")] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: formats.appendingPathComponent(file), to: root.appendingPathComponent("\(folder)/\(file)"))
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("kar"), withIntermediateDirectories: true)
        try Data(MIDIFixture.tune().bytes()).write(to: root.appendingPathComponent("kar/tune.kar"))

        let entries = SongLibrary(directory: root.path).scan()
        #expect(entries.map(\.id) == ["ass", "kar", "srt", "ttml"])
        #expect(entries.map { $0.song?.source.format } == [.ass, .midi, .subRip, .ttml])
        let kar = try #require(entries[1].song)
        #expect(kar.hasNotes && kar.metadata.title == "Fixture Song")
    }
}
