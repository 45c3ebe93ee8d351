import ArgumentParser
import AudioFiles
import Foundation
import PitchDetection

/// `karaoke pitch FILE [--backing FILE] [--csv] [--details]`: one `time_s,f0_hz` row per hop (0 = unvoiced).
struct PitchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pitch",
        abstract: "Detect the sung pitch of an audio file, one row per 10 ms hop (0 = unvoiced).",
        discussion: """
        time_s is the centre of each analysis window (seconds from the first sample). \
        With --backing the known backing track is used to suppress its bleed into the recording \
        (it is aligned automatically; delays up to 250 ms).
        """
    )

    @Argument(help: "The recording (WAV, FLAC, OGG …; channels are mixed down).")
    var file: String

    @Option(help: "The backing track that was playing during the recording.")
    var backing: String?

    @Flag(help: "Start with the CSV header line `time_s,f0_hz`.")
    var csv = false

    @Flag(help: "Add the clarity (0…1) and level (dBFS) columns.")
    var details = false

    @Option(help: "Hop between frames in milliseconds.")
    var hopMs: Double = 10

    @Option(help: "Low cut (first-order high-pass) on the analysis signal in Hz, 0 = off (default: the detector's).")
    var lowCut: Double?

    @Option(help: "Harmonic-reading margin: how much more periodic a multiple of the first-dip period must be to win (default: the detector's).")
    var harmonicMargin: Float?

    func validate() throws {
        guard hopMs >= 1, hopMs <= 100 else { throw ValidationError("--hop-ms must be 1…100") }
        if let lowCut, !(0...2000).contains(lowCut) { throw ValidationError("--low-cut must be 0…2000 Hz") }
        if let harmonicMargin, !(0...1).contains(harmonicMargin) { throw ValidationError("--harmonic-margin must be 0…1") }
    }

    func run() throws {
        let recording = try readMono(file)
        var configuration = PitchDetectorConfiguration()
        configuration.hopSeconds = hopMs / 1000
        if let lowCut { configuration.lowCutFrequency = lowCut }
        if let harmonicMargin { configuration.harmonicReadingMargin = harmonicMargin }
        var backingSamples: [Float]? = nil
        if let backing {
            let track = try readMono(backing)
            backingSamples = track.rate == recording.rate
                ? track.samples
                : Resampler.resample(track.samples, from: track.rate, to: recording.rate)
        }
        let detector = PitchDetector(sampleRate: recording.rate, configuration: configuration)
        let started = threadCPUNanoseconds()
        let frames = detector.analyze(recording.samples, backing: backingSamples)
        let elapsed = Double(threadCPUNanoseconds() - started) / 1e9
        var out = ""
        out.reserveCapacity(frames.count * 32)
        if csv { out += details ? "time_s,f0_hz,clarity,level_db\n" : "time_s,f0_hz\n" }
        for frame in frames {
            out += String(format: "%.4f,%.3f", frame.time, frame.frequency)
            if details { out += String(format: ",%.3f,%.1f", frame.clarity, frame.levelDb) }
            out += "\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
        if ProcessInfo.processInfo.environment["KARAOKE_PITCH_TIMING"] != nil {
            let seconds = Double(recording.samples.count) / recording.rate
            FileHandle.standardError.write(Data(String(
                format: "analysis %.6f s CPU-bound for %.3f s of audio (%.0fx real time)\n",
                elapsed, seconds, seconds / max(elapsed, 1e-9)).utf8))
        }
    }

    private func readMono(_ path: String) throws -> (samples: [Float], rate: Double) {
        do {
            let buffer = try AudioFile.read(path: path)
            guard buffer.sampleRate >= 8_000 else {
                throw ValidationError("\(path): sample rate \(Int(buffer.sampleRate)) Hz is too low for pitch detection (need ≥ 8000 Hz)")
            }
            return (buffer.mono(), buffer.sampleRate)
        } catch let error as AudioFileError {
            throw ValidationError("cannot read audio file \(error)")
        }
    }
}

private func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
