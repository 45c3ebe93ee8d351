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

public enum CalibrationError: Error, CustomStringConvertible, Equatable {
    /// Nothing loud enough to be a click reached the input.
    case noClicksHeard(input: String)
    /// The clicks lined up, but at a delay the schedule does not measure.
    case delayOutOfRange(input: String, delay: Double, range: ClosedRange<Double>)
    /// Sounds arrived, but too few of them line up with the clicks at any one delay.
    case clicksDidNotLineUp(input: String, heard: Int, lined: Int, needed: Int)

    public var description: String {
        switch self {
        case .noClicksHeard(let input):
            return "no calibration clicks arrived at input '\(input)': is the microphone near the speaker (or a loopback loaded)?"
        case .delayOutOfRange(let input, let delay, let range):
            if delay > range.upperBound {
                return String(format: "the calibration clicks reached input '%@' %.2f s late, more than the %.1f s a calibration measures: is it a long network or loopback path?",
                              input, delay, range.upperBound)
            }
            return String(format: "the calibration clicks reached input '%@' %.2f s before they were played: its clock is not the playback's", input, -delay)
        case .clicksDidNotLineUp(let input, let heard, let lined, let needed):
            return "input '\(input)' heard \(heard) sounds during the calibration, but only \(lined) line up with the clicks at one delay (\(needed) needed): is something louder than the clicks near it, or are its samples lost now and then?"
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
    /// The gap between the first two clicks; the later gaps grow from it (`ClickSchedule`):
    /// 8 clicks span 4.1 s (0.5 s apart they spanned 3.5 s).
    public var shortestGap = 0.4
    /// The delays it can measure; the run lasts until the last click has arrived at the longest.
    public var measurableDelays = ClickSchedule.defaultMeasurableDelays

    /// The clicks a run plays.
    public var schedule: ClickSchedule {
        ClickSchedule(count: clicks, shortestGap: shortestGap, measurableDelays: measurableDelays)
    }

    public init(output: String?, inputs: [String?], server: String? = nil) {
        self.output = output
        self.inputs = inputs.isEmpty ? [nil] : inputs
        self.server = server
    }

    /// 2 kHz bursts, 3 ms, Hann-shaped, at the schedule's times; silence to its `duration`.
    public static func clickTrack(_ schedule: ClickSchedule, rate: Double) -> [Float] {
        var out = [Float](repeating: 0, count: Int(schedule.duration * rate))
        let len = Int(0.003 * rate)
        for time in schedule.times {
            let start = Int((time * rate).rounded())
            for i in 0..<len where start + i < out.count {
                let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(len))
                out[start + i] = Float(0.8 * w * sin(2 * Double.pi * 2000 * Double(i) / rate))
            }
        }
        return out
    }

    /// Runs the measurement (the schedule's `duration` plus half a second: 7.4 s for 8 clicks)
    /// and returns one result per input.
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

        let schedule = self.schedule
        let signal = Self.clickTrack(schedule, rate: player.sampleRate)
        player.load(track: TrackSource(left: signal, right: signal, sampleRate: player.sampleRate))
        for c in captures { _ = c.engine.channels[0].samples.skip(Int.max) }
        player.play()

        // Record every input (sample values with their capture times) until every click is heard.
        var readers = captures.map(\.reader)
        let recordings = ClickRecorder(schedule: schedule, listenPastEnd: Self.listenPastEnd)
            .record(&readers, rates: captures.map { $0.engine.configuration.sampleRate }, player: player)

        var results: [String: InputCalibration] = [:]
        for i in captures.indices {
            let match = Self.clickMatch(samples: recordings[i].samples, stamps: recordings[i].stamps,
                                        rate: captures[i].engine.configuration.sampleRate, clock: player.clock, schedule: schedule)
            let delays = try Self.measured(match, schedule: schedule, needed: max(1, clicks / 2), input: captures[i].name)
            let sorted = delays.sorted()
            results[captures[i].name] = InputCalibration(
                delaySeconds: sorted[sorted.count / 2], clicks: delays.count, spreadSeconds: sorted.last! - sorted.first!,
                reportedInputLatency: captures[i].engine.inputLatency, reportedOutputLatency: player.outputLatency)
        }
        return results
    }

    /// The track's end is the last click heard at the longest delay (`ClickSchedule.duration`);
    /// this is for the capture's own buffering to hand the last samples over.
    static let listenPastEnd = 0.5

    /// Each onset in the capture mapped to the media time heard when it was captured, then
    /// matched to the schedule (`ClickSchedule.delays(ofOnsetsHeardAt:)`): the delays of the
    /// onsets that fit the one delay lining up the most of them.
    public static func clickDelays(samples: [Float], stamps: [(index: Int, time: Double)], rate: Double, clock: PlaybackClock,
                                   schedule: ClickSchedule) -> [Double] {
        schedule.delays(ofOnsetsHeardAt: heardTimes(samples: samples, stamps: stamps, rate: rate, clock: clock, schedule: schedule))
    }

    /// The same onsets matched, with what was heard (`ClickSchedule.match`), to tell why a run failed.
    public static func clickMatch(samples: [Float], stamps: [(index: Int, time: Double)], rate: Double, clock: PlaybackClock,
                                  schedule: ClickSchedule) -> ClickSchedule.Match {
        schedule.match(onsetsHeardAt: heardTimes(samples: samples, stamps: stamps, rate: rate, clock: clock, schedule: schedule))
    }

    /// The lined-up delays of a run when at least `needed` clicks lined up within the schedule's
    /// delays; else the error that says what went wrong.
    public static func measured(_ match: ClickSchedule.Match, schedule: ClickSchedule, needed: Int, input: String) throws -> [Double] {
        guard match.heard > 0 else { throw CalibrationError.noClicksHeard(input: input) }
        if let delay = match.delay, !schedule.measurableDelays.contains(delay), match.lined.count >= needed {
            throw CalibrationError.delayOutOfRange(input: input, delay: delay, range: schedule.measurableDelays)
        }
        guard match.lined.count >= needed, let delay = match.delay, schedule.measurableDelays.contains(delay) else {
            throw CalibrationError.clicksDidNotLineUp(input: input, heard: match.heard, lined: match.lined.count, needed: needed)
        }
        return match.lined
    }

    private static func heardTimes(samples: [Float], stamps: [(index: Int, time: Double)], rate: Double, clock: PlaybackClock,
                                   schedule: ClickSchedule) -> [Double] {
        onsets(in: samples, rate: rate, expected: schedule.times.count).compactMap { i in
            hostTime(ofSample: i, stamps: stamps, rate: rate).flatMap { clock.mediaTime(atHostTime: $0) }
        }
    }

    /// Samples reaching 30 % of the clicks' level after 0.1 s below that (a click's first loud
    /// sample). The level is that of the loudest bursts but a quarter of the `expected` clicks
    /// (bursts: the loudest sample of each 0.1 s apart), so that a bang or two much louder than
    /// the clicks (a door, a dropped microphone) does not put them all under the threshold.
    static func onsets(in samples: [Float], rate: Double, expected: Int) -> [Int] {
        guard let level = clickLevel(samples, rate: rate, expected: expected), level > 0.01 else { return [] }
        let threshold = 0.3 * level
        var onsets: [Int] = []
        var lastLoud = -Int(rate)
        for (i, x) in samples.enumerated() where abs(x) >= threshold {
            if i - lastLoud > Int(0.1 * rate) { onsets.append(i) }
            lastLoud = i
        }
        return onsets
    }

    /// The `1 + expected / 4`-th loudest burst: with `expected` clicks heard, one of them
    /// whatever up to a quarter as many louder sounds came too. Nil for an empty capture.
    static func clickLevel(_ samples: [Float], rate: Double, expected: Int) -> Float? {
        let block = max(1, Int(0.01 * rate))
        var maxima: [(index: Int, level: Float)] = []
        maxima.reserveCapacity(samples.count / block + 1)
        var start = 0
        while start < samples.count {
            var loudest: (index: Int, level: Float) = (start, 0)
            for i in start..<min(samples.count, start + block) where abs(samples[i]) > loudest.level {
                loudest = (i, abs(samples[i]))
            }
            maxima.append(loudest)
            start += block
        }
        // The loudest first, each burst counted once: blocks within 0.1 s of a louder one are its own.
        let apart = Int(0.1 * rate)
        let rank = 1 + max(0, expected) / 4
        var bursts: [Int] = []
        for candidate in maxima.sorted(by: { $0.level > $1.level }) where candidate.level > 0 {
            guard bursts.allSatisfy({ abs($0 - candidate.index) >= apart }) else { continue }
            bursts.append(candidate.index)
            if bursts.count == rank { return candidate.level }
        }
        return bursts.last.map { abs(samples[$0]) }
    }

    /// Capture time of sample `index`: from the stamp at or before it (the first, if none is).
    static func hostTime(ofSample index: Int, stamps: [(index: Int, time: Double)], rate: Double) -> Double? {
        guard let stamp = stamps.last(where: { $0.index <= index }) ?? stamps.first else { return nil }
        return stamp.time + Double(index - stamp.index) / rate
    }
}
