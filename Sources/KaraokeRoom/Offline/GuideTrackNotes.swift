import AudioFiles
import Foundation
import Scoring
import SongFormats
import SongModel

/// Derives reference notes for a lyrics-only song from its vocal guide track and saves
/// them as an UltraStar file, so the next run (and the song editor) can use them directly.
public struct GuideTrackNotes: Sendable {
    public struct Outcome: Sendable {
        public var song: Song
        /// Nil when saving failed (see warnings); the notes were still used for scoring.
        public var savedPath: String?
        public var warnings: [String]
    }

    public let pitchSource: any PitchSampleSource
    public var segmenter = NoteSegmenter()

    public init(pitchSource: any PitchSampleSource) {
        self.pitchSource = pitchSource
    }

    static let audioExtensions: Set<String> = ["ogg", "oga", "opus", "wav", "flac", "mp3", "m4a"]

    /// The song's guide track if it exists on disk: `#VOCALS` (relative to the song file), else
    /// what the song library finds in the song's folder by convention (`vocals.*`, `voice.*`, `guide.*`);
    /// lyrics formats have no tag for it.
    public static func vocalsPath(of song: Song) -> String? {
        let folder = (song.source.path as NSString).deletingLastPathComponent
        if let vocals = song.metadata.vocalsFile, !vocals.isEmpty, !vocals.contains("://") {
            let path = vocals.hasPrefix("/") ? vocals : (folder as NSString).appendingPathComponent(vocals)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        let absolute = ((folder.isEmpty ? FileManager.default.currentDirectoryPath : folder) as NSString).standardizingPath
        let library = SongLibrary(directory: (absolute as NSString).deletingLastPathComponent)
        return library.entry(id: (absolute as NSString).lastPathComponent)?.vocalsPath
    }

    /// Audio references for the saved file (UltraStar requires `#MP3`): the song's backing track,
    /// else another audio file in its folder, else the guide itself; relative when saved beside the song.
    static func relocatedMetadata(of song: Song, vocalsPath: String, outputPath: String) -> SongMetadata {
        var metadata = song.metadata
        let folder = Self.absolute((song.source.path as NSString).deletingLastPathComponent)
        let outputFolder = Self.absolute((outputPath as NSString).deletingLastPathComponent)
        func absolute(_ file: String) -> String {
            file.hasPrefix("/") ? file : (folder as NSString).appendingPathComponent(file)
        }
        func reference(_ path: String) -> String {
            let standard = Self.absolute(path)
            let prefix = (outputFolder as NSString).standardizingPath + "/"
            return standard.hasPrefix(prefix) ? String(standard.dropFirst(prefix.count)) : standard
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []).sorted()
        let vocalsName = (vocalsPath as NSString).lastPathComponent
        let otherAudio = names.filter { audioExtensions.contains(($0 as NSString).pathExtension.lowercased()) && $0 != vocalsName }
        let backing = song.metadata.backingTrackFile.map(absolute)
            ?? (otherAudio.first { $0.lowercased().contains("backing") || $0.lowercased().contains("instrumental") } ?? otherAudio.first)
                .map(absolute)
            ?? vocalsPath
        metadata.audioFile = reference(backing)
        metadata.instrumentalFile = nil
        metadata.vocalsFile = reference(vocalsPath)
        metadata.otherTags["COMMENT"] = "notes derived from the vocal guide track by karaoke"
        return metadata
    }

    static func absolute(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let full = path.hasPrefix("/") ? path : (path.isEmpty ? cwd : (cwd as NSString).appendingPathComponent(path))
        return (full as NSString).standardizingPath
    }

    /// `<song file without extension>.derived.txt` beside the song file.
    public static func defaultOutputPath(for song: Song) -> String {
        (song.source.path as NSString).deletingPathExtension + ".derived.txt"
    }

    public func derive(song: Song, vocalsPath: String, savingTo outputPath: String) throws(OfflineScoringError) -> Outcome {
        let guide: AudioBuffer
        do { guide = try AudioFile.read(path: vocalsPath) } catch { throw .audio(error) }
        // The guide track plays in media time at tempo 1: no conversion.
        let samples = pitchSource.pitchSamples(of: guide.mono(), sampleRate: guide.sampleRate)
        let clock = NoteSegmenter.defaultClock
        let notes = segmenter.notes(from: segmenter.segments(samples), clock: clock)
        var derived = DerivedSongBuilder.song(lyrics: song, notes: notes, clock: clock, savedAs: outputPath)
        derived.metadata = Self.relocatedMetadata(of: song, vocalsPath: vocalsPath, outputPath: outputPath)
        var warnings: [String] = []
        var saved: String? = outputPath
        if notes.isEmpty { warnings.append("\(vocalsPath): no sung notes found in the guide track") }
        do {
            try FileManager.default.createDirectory(
                atPath: (outputPath as NSString).deletingLastPathComponent.isEmpty ? "." : (outputPath as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try UltraStarWriter.text(for: derived).write(toFile: outputPath, atomically: true, encoding: .utf8)
        } catch {
            saved = nil
            warnings.append("\(outputPath): could not save the derived notes: \(error.localizedDescription)")
        }
        return Outcome(song: derived, savedPath: saved, warnings: warnings)
    }
}
