import AudioFiles
import Foundation
import SongModel

/// Renders a singer as audio: a harmonic tone (5 partials) on each judged note of a part,
/// with 5.5 Hz vibrato of ±`vibratoCents`, legato between touching notes, soft edges.
/// Everything about the performance is a parameter, so tests can sing wrong on purpose.
struct SynthesisedSinger {
    var sampleRate = 22_050.0
    /// Added to every note (semitones): −12 an octave lower, +3 out of tune, +2 following a key change.
    var transpose = 0.0
    /// Seconds the singer is behind (the recording hears them this late).
    var late = 0.0
    /// Playback speed the recording was made at: song second s is heard at recording second s / tempo.
    var tempo = 1.0
    var vibratoCents = 30.0
    var amplitude: Float = 0.3
    var silent = false

    /// Media-time spans of the notes to sing, with their MIDI pitch.
    static func notes(of song: Song, part: Int) -> [(start: Double, end: Double, midi: Double)] {
        let clock = song.beatClock
        return song.parts[part].lines.flatMap(\.syllables).compactMap { syllable in
            guard let note = syllable.note, note.kind != .freestyle else { return nil }
            let start = clock?.seconds(atBeat: note.startBeat) ?? syllable.start
            let end = clock?.seconds(atBeat: note.endBeat) ?? syllable.end
            return (start, end, Double(note.midi))
        }
    }

    func render(_ song: Song, part: Int = 0) -> AudioBuffer {
        let notes = Self.notes(of: song, part: part)
        let songEnd = (notes.map(\.end).max() ?? 0) + 1
        let frames = Int(((songEnd / tempo) + late + 0.5) * sampleRate)
        var samples = [Float](repeating: 0, count: frames)
        guard !silent else { return AudioBuffer(samples: samples, sampleRate: sampleRate, channels: 1) }
        var phase = 0.0
        let edge = 0.01
        for (i, note) in notes.enumerated() {
            let start = note.start / tempo + late
            let end = note.end / tempo + late
            // Legato into the next note when it starts within 20 ms: no fade-out.
            let joinsNext = i + 1 < notes.count && notes[i + 1].start / tempo + late - end < 0.02
            let joinsPrevious = i > 0 && start - (notes[i - 1].end / tempo + late) < 0.02
            let first = max(0, Int(start * sampleRate))
            let last = min(frames, Int(end * sampleRate))
            guard first < last else { continue }
            for n in first..<last {
                let t = Double(n) / sampleRate
                let cents = vibratoCents * sin(2 * .pi * 5.5 * t)
                let hz = 440 * pow(2, (note.midi + transpose - 69 + cents / 100) / 12)
                phase += 2 * .pi * hz / sampleRate
                if phase > 2 * .pi * 1000 { phase -= 2 * .pi * 1000 }
                var value = 0.0
                for k in 1...5 { value += sin(Double(k) * phase) / Double(k) }
                var gain = 1.0
                if !joinsPrevious { gain = min(gain, (t - start) / edge) }
                if !joinsNext { gain = min(gain, (end - t) / edge) }
                samples[n] = amplitude * Float(value * max(0, min(1, gain)) / 2.28)
            }
        }
        return AudioBuffer(samples: samples, sampleRate: sampleRate, channels: 1)
    }

    /// Renders and writes a WAV (through AudioFiles), returning its path.
    func write(_ song: Song, part: Int = 0, name: String, in directory: String = NSTemporaryDirectory() + "karaoke-singers") throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/\(name)-\(UUID().uuidString).wav"
        try AudioFile.write(render(song, part: part), to: path, format: .wav16)
        return path
    }
}

/// Locates test data beside the package: `<package root>/../shared/corpus` and `<package root>/songs`.
enum TestPaths {
    static var packageRoot: String {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath
    }

    static var corpus: String { (packageRoot as NSString).appendingPathComponent("../shared/corpus") }
    static func corpusUltraStar(_ name: String) -> String { corpus + "/ultrastar/" + name }
    static var demoSong: String { packageRoot + "/songs/demo/demo.txt" }
    /// An original fast song (50 ms beats) the project owns, for the fast-song cases.
    static var fastSong: String { packageRoot + "/Tests/Fixtures/songs/fast/fast.txt" }
    static var demoLyrics: String { packageRoot + "/songs/demo/demo.lrc" }
}
