import ArgumentParser
import AudioEngine
import Foundation

/// `karaoke calibrate`: measures each microphone's delay through the real speaker → mic path.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Play test clicks and time their arrival at each microphone; store the mic delays.",
        discussion: """
            Hold each microphone near the speaker (or route the output into the input). The delay
            is the time from a media moment being heard (playback clock) to the microphone capturing
            it; live scoring subtracts it. Results are merged into the --store JSON file.
            """)

    @Option(help: "Output sink (default: the server's default sink).")
    var output: String?

    @Option(name: .customLong("input"), help: "Input source (repeatable; default: the server's default source).")
    var inputs: [String] = []

    @Option(help: "Number of clicks to time.")
    var clicks: Int = 8

    @Option(help: "Where to keep the delays.")
    var store: String = CalibrationStore.defaultPath

    struct Failure: Error, CustomStringConvertible { var description: String }

    func validate() throws {
        // Every click-to-click distance differs (`ClickSchedule`), so the gaps grow: 20 clicks span 31 s.
        guard (2...20).contains(clicks) else { throw ValidationError("--clicks must be 2…20") }
    }

    func run() throws {
        let calibrator = LatencyCalibrator(output: output, inputs: inputs.isEmpty ? [nil] : inputs.map { Optional($0) })
        calibrator.clicks = clicks
        let results: [String: InputCalibration]
        do {
            results = try calibrator.run()
        } catch {
            throw Failure(description: "calibration failed: \(error)")
        }
        var saved = try CalibrationStore.load(path: store)
        saved.output = output
        saved.measuredAt = Date()
        for (input, result) in results.sorted(by: { $0.key < $1.key }) {
            saved.inputs[input] = result
            let reported = [result.reportedOutputLatency.map { String(format: "output %.1f ms", $0 * 1000) },
                            result.reportedInputLatency.map { String(format: "input %.1f ms", $0 * 1000) }].compactMap { $0 }
            print(String(format: "%@: mic delay %.1f ms (%d clicks, spread %.1f ms; PulseAudio reports %@)",
                         input, result.delaySeconds * 1000, result.clicks, result.spreadSeconds * 1000,
                         reported.joined(separator: ", ")))
        }
        try saved.save(path: store)
        print("saved to \(store)")
    }
}
