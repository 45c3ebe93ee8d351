import Foundation

/// How well real-time audio kept up is a figure for `Benchmarks/`, not a test's verdict: on a
/// loaded machine the scheduler, not the code, decides whether a 10 ms window arrives in time.
/// Tests that play through PulseAudio judge what they did (the tone plays, changes take effect)
/// and hand their continuity figures here; `scripts/bench pulse-continuity` runs them with
/// `KARAOKE_REALTIME_FIGURES` set to a folder and checks the figures against its thresholds.
enum RealTimeFigures {
    /// Writes `figures` as `<folder>/<name>.json` when the benchmark asked for them.
    static func record(_ name: String, _ figures: [String: Double]) {
        guard let folder = ProcessInfo.processInfo.environment["KARAOKE_REALTIME_FIGURES"], !folder.isEmpty else { return }
        let url = URL(fileURLWithPath: folder).appendingPathComponent("\(name).json")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]).write(to: url)
        } catch {
            print("RealTimeFigures: could not write \(url.path): \(error)")
        }
    }
}
