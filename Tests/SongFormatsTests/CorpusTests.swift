import Foundation
import Testing
import SongFormats
import SongModel
import TestSupport

/// Every corpus file either reads or is rejected with an error naming the file and line.
/// Files added to the corpus later are covered automatically.
@Suite(.enabled(if: SharedCorpus.isPresent, Comment(rawValue: SharedCorpus.absentReason)))
struct CorpusTests {
    /// Files a lenient reader still rejects (no usable timeline): line and a fragment of the message.
    static let rejected: [String: (line: Int?, message: String)] = [
        // UltraStar Play's parser test files carry no #BPM: no note can be timed.
        "UltraStar-Deluxe__Play__Duet.txt": (5, "#BPM"),
        "UltraStar-Deluxe__Play__Solo.txt": (5, "#BPM"),
        "UltraStar-Deluxe__Play__WithPhraseEndBeat.txt": (5, "#BPM"),
        "UltraStar-Deluxe__Play__WithoutPhraseEndBeat.txt": (5, "#BPM"),
        "UltraStar-Deluxe__Play__NoteWithoutLyricsAndMissingLastSeparator.txt": (5, "#BPM"),
        // A template with ${…} placeholders, no headers at all: the header-less fragment.
        "UltraStar-Deluxe__Play__UltraStarSongTemplate__song.txt": (1, "#BPM"),
        "man0lis__ultrastar-txt__value_error_in_header_bpm.txt": (5, "#BPM must be a number"),
        "osk__node-webvtt__malformed.vtt": (8, "not in a cue"),
    ]

    /// What strict reading (`karaoke show --strict`) rejects in addition: every file a player
    /// reads only by assuming something. Leniently each reads with a warning on this line.
    static let strictlyRejected: [String: (line: Int?, message: String)] = [
        "weirongxu__lrc-kit__fixtures_lrcText.lrc": (8, "[offset:]"),
        "Asvarox__allkaraoke__e2e-croissant-french-1994.txt": (80, "expected length"),
        "Asvarox__allkaraoke__e2e-multitrack-polish-1994.txt": (18, "must be in order"),
        "UltraStar-Deluxe__Play__NegativeNoteValues.txt": (6, "negative"),
        "UltraStar-Deluxe__Play__ParseVersion.txt": (1, "#VERSION"),
        "UltraStar-Deluxe__Play__invalid-explicit-encoding.txt": (3, "unknown #ENCODING 'InvalidEncoding'"),
        "man0lis__ultrastar-txt__garbage_line.txt": (7, "unrecognised line 'Test'"),
        "man0lis__ultrastar-txt__missing_essential_header.txt": (5, "#MP3"),
        "man0lis__ultrastar-txt__negative_line_break.txt": (6, "negative"),
        "man0lis__ultrastar-txt__negative_start_in_lines.txt": (6, "negative"),
        "man0lis__ultrastar-txt__unknown_note_type.txt": (7, "unrecognised line 'M 4 4 59 I'"),
        "man0lis__ultrastar-txt__value_error_in_header_gap.txt": (4, "#GAP must be a number"),
        "man0lis__ultrastar-txt__value_error_in_header_videogap.txt": (6, "#VIDEOGAP must be a number"),
        "man0lis__ultrastar-txt__value_error_in_header_year.txt": (7, "#YEAR must be a whole number"),
        "UltraStar-Deluxe__Play__UltraStarSongTemplate__song.txt": (1, "unrecognised line '${artistTag}'"),
        "osk__node-webvtt__acid.vtt": (62, "malformed cue timing 'MALFORMEDCUE -->'"),
    ]

    @Test func corpusIsPresent() {
        #expect(TestPaths.corpusFiles().count >= 100, "corpus not found at \(TestPaths.corpus.path)")
    }

    @Test(arguments: TestPaths.corpusFiles())
    func readsOrRejectsClearly(path: String) {
        check(path: path, mode: .lenient, rejected: Self.rejected)
    }

    @Test(arguments: TestPaths.corpusFiles())
    func strictReadingRejectsWhatLenientReadingAssumes(path: String) throws {
        check(path: path, mode: .strict, rejected: Self.rejected.merging(Self.strictlyRejected) { _, strict in strict })
        let name = (path as NSString).lastPathComponent
        guard let strict = Self.strictlyRejected[name], Self.rejected[name] == nil else { return }
        // Leniently the same file reads, warning on the line strict reading rejects.
        let song = try SongFileReader.read(path: path)
        #expect(song.warnings.contains { $0.line == strict.line && $0.path == path }, "\(name): \(song.warnings)")
    }

    private func check(path: String, mode: SongReadingMode, rejected: [String: (line: Int?, message: String)]) {
        let name = (path as NSString).lastPathComponent
        let started = Date()
        let result: Result<Song, SongFileError>
        do { result = .success(try SongFileReader.read(path: path, mode: mode)) } catch { result = .failure(error) }
        #expect(Date().timeIntervalSince(started) < 5, "\(name) took too long")
        switch (result, rejected[name]) {
        case (.success(let song), nil):
            #expect(!song.parts.isEmpty && song.parts.allSatisfy { !$0.lines.isEmpty }, "\(name) read without lines")
            if mode == .strict { #expect(song.warnings.isEmpty, "\(name): strict reading warned \(song.warnings)") }
            for warning in song.warnings { #expect(warning.path == path && warning.line != nil, "\(warning)") }
            for part in song.parts {
                for line in part.lines {
                    #expect(line.end >= line.start, "\(name): line ends before it starts")
                    #expect(!line.syllables.isEmpty)
                }
                let starts = part.lines.map(\.start)
                #expect(starts == starts.sorted(), "\(name): lines out of order")
            }
        case (.success, .some(let expected)):
            Issue.record("\(name) should be rejected (\(expected.message)) but was read")
        case (.failure(let error), let expected):
            #expect(error.path == path, "error must name the file")
            #expect(error.description.hasPrefix(path))
            if let expected {
                #expect(error.line == expected.line, "\(name): \(error)")
                #expect(error.message.contains(expected.message), "\(name): \(error)")
            } else {
                // Not listed as rejected: it must read. A new corpus file that fails lands
                // here and needs a decision (fix the reader or list it above with its reason).
                Issue.record("\(name) should read but failed: \(error)")
            }
        }
    }
}
