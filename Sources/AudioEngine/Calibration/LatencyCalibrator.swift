import Foundation

/// The measured delay of one microphone input.
public struct InputCalibration: Codable, Sendable, Equatable {
    /// Seconds from hearing a media time (playback clock) to the microphone capturing it:
    /// a mic sample captured at host time h belongs to media time `clock(h) − delay`.
    public var delaySeconds: Double
    /// Clicks detected and used.
    public var clicks: Int
    /// Max − min of the per-click delays (a large spread means an unreliable measurement).
    public var spreadSeconds: Double
    /// PulseAudio's own latency figures at the time, for reference.
    public var reportedInputLatency: Double?
    public var reportedOutputLatency: Double?

    public init(delaySeconds: Double, clicks: Int, spreadSeconds: Double, reportedInputLatency: Double? = nil,
                reportedOutputLatency: Double? = nil) {
        self.delaySeconds = delaySeconds
        self.clicks = clicks
        self.spreadSeconds = spreadSeconds
        self.reportedInputLatency = reportedInputLatency
        self.reportedOutputLatency = reportedOutputLatency
    }
}

public enum CalibrationError: Error, CustomStringConvertible {
    case noClicksHeard(input: String)
    public var description: String {
        switch self {
        case .noClicksHeard(let input):
            "no calibration clicks arrived at input '\(input)': is the microphone near the speaker (or a loopback loaded)?"
        }
    }
}

/// Times test clicks through the real path: played by a `PlaybackEngine` on the output,
/// captured by a `CaptureEngine` on each input; the heard media time of every arriving click
/// (capture stamp → playback clock) minus the click's own media time is the mic delay.
public final class LatencyCalibrator {
    public var output: String?
    public var inputs: [String?]
    public var server: String?
    public var clicks = 8
    public var period = 0.5

    public init(output: String?, inputs: [String?], server: String? = nil) {
        self.output = output
        self.inputs = inputs.isEmpty ? [nil] : inputs
        self.server = server
    }

    /// 2 kHz bursts, 3 ms, Hann-shaped, every `period` s from `period` on.
    public static func clickTrack(period: Double, count: Int, rate: Double) -> [Float] {
        let total = Int((Double(count + 1) * period + 0.5) * rate)
        var out = [Float](repeating: 0, count: total)
        let len = Int(0.003 * rate)
        for k in 1...count {
            let start = Int((Double(k) * period * rate).rounded())
            for i in 0..<len {
                let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(len))
                out[start + i] = Float(0.8 * w * sin(2 * Double.pi * 2000 * Double(i) / rate))
            }
        }
        return out
    }

    /// Runs the measurement (about `(clicks + 1.5) × period` seconds) and returns one result per input.
    public func run() throws -> [String: InputCalibration] {
        var playConfig = PlaybackEngine.Configuration(device: output)
        playConfig.server = server
        let player = try PlaybackEngine(configuration: playConfig)
        defer { player.close() }
        var captures: [(name: String, engine: CaptureEngine, reader: CaptureReader)] = []
        for input in inputs {
            var config = CaptureEngine.Configuration(source: input)
            config.server = server
            let engine = try CaptureEngine(configuration: config)
            captures.append((CalibrationStore.key(for: input), engine, engine.channels[0].makeReader()))
        }
        defer { captures.forEach { $0.engine.close() } }

        let signal = Self.clickTrack(period: period, count: clicks, rate: player.sampleRate)
        player.load(track: TrackSource(left: signal, right: signal, sampleRate: player.sampleRate))
        for c in captures { _ = c.engine.channels[0].samples.skip(Int.max) }
        player.play()

        // Record every input (sample values with their capture times) until playback ends.
        var recorded = [[Float]](repeating: [], count: captures.count)
        var stamps = [[(index: Int, time: Double)]](repeating: [], count: captures.count)
        var buffer = [Float](repeating: 0, count: 4800)
        let deadline = Date().addingTimeInterval(Double(clicks + 2) * period + 2)
        var endedAt: Date?
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            for i in captures.indices {
                while true {
                    let (n, t) = buffer.withUnsafeMutableBufferPointer { captures[i].reader.read(into: $0) }
                    if n == 0 { break }
                    if let t { stamps[i].append((recorded[i].count, t)) }
                    recorded[i].append(contentsOf: buffer[0..<n])
                }
            }
            if !player.isPlaying {
                if endedAt == nil { endedAt = Date() }
                if Date().timeIntervalSince(endedAt!) > period { break }
            }
        }

        var results: [String: InputCalibration] = [:]
        for i in captures.indices {
            let delays = clickDelays(samples: recorded[i], stamps: stamps[i], rate: captures[i].engine.configuration.sampleRate, clock: player.clock)
            guard delays.count >= max(1, clicks / 2) else { throw CalibrationError.noClicksHeard(input: captures[i].name) }
            let sorted = delays.sorted()
            results[captures[i].name] = InputCalibration(
                delaySeconds: sorted[sorted.count / 2], clicks: delays.count, spreadSeconds: sorted.last! - sorted.first!,
                reportedInputLatency: captures[i].engine.inputLatency, reportedOutputLatency: player.outputLatency)
        }
        return results
    }

    /// Onsets above 30 % of the loudest sample, each mapped to the media time heard when it
    /// was captured; its delay is measured from the click just before (delays −0.1…period−0.1 s).
    public func clickDelays(samples: [Float], stamps: [(index: Int, time: Double)], rate: Double, clock: PlaybackClock) -> [Double] {
        guard let peak = samples.map(abs).max(), peak > 0.01 else { return [] }
        let threshold = 0.3 * peak
        var delays: [Double] = []
        var lastOnset = -Int(rate)
        for (i, x) in samples.enumerated() where abs(x) >= threshold {
            defer { lastOnset = i }
            guard i - lastOnset > Int(0.1 * rate) else { continue }
            guard let stamp = stamps.last(where: { $0.index <= i }) ?? stamps.first else { continue }
            let host = stamp.time + Double(i - stamp.index) / rate
            guard let heard = clock.mediaTime(atHostTime: host) else { continue }
            let click = ((heard + 0.1) / period).rounded(.down) * period
            guard click >= period else { continue }
            delays.append(heard - click)
        }
        return delays
    }
}
