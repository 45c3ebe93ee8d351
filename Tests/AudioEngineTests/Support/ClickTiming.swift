@testable import AudioEngine

/// A click of a click track (`TestSignals.clicks`) as it was heard at a sink's monitor, with
/// what the playback clock said was playing at that moment.
struct HeardClick {
    /// The media time of the click in the track.
    var click: Double
    /// The clock's media time at the click's capture stamp.
    var clock: Double
    /// Clock minus sound, seconds (positive: the clock is ahead of what is heard).
    var error: Double { clock - click }
}

extension MonitorRecorder {
    /// Every click recorded so far whose capture time is after `hostTime`, matched to the
    /// nearest click of a track with clicks every `period` seconds.
    func heardClicks(period: Double, after hostTime: Double, clock: PlaybackClock) -> [HeardClick] {
        let rate = capture.configuration.sampleRate
        return ClickTiming.centres(in: samples, onsets: onsets(), rate: rate).compactMap { centre in
            let index = Int(centre)
            guard let start = self.hostTime(ofSample: index) else { return nil }
            let h = start + (centre - Double(index)) / rate
            guard h > hostTime, let heard = clock.mediaTime(atHostTime: h) else { return nil }
            return ClickTiming.match(heardCentre: heard, period: period)
        }
    }
}

/// Timing clicks of `TestSignals.clicks` in rendered or recorded audio.
///
/// A click is timed by the energy centroid of the burst (compared with the centre of the 3 ms
/// burst in the track), not by its first loud sample: the stretcher smears a click at other
/// tempos and keys, and a threshold would time the smear's start, not the click.
enum ClickTiming {
    /// Indices where the signal rises above `threshold` after at least `quiet` seconds below it.
    static func onsets(in samples: [Float], rate: Double, threshold: Float = 0.1, quiet: Double = 0.05, from start: Int = 0) -> [Int] {
        var result: [Int] = []
        let quietSamples = Int(quiet * rate)
        var lastLoud = -quietSamples - 1
        for i in start..<samples.count where abs(samples[i]) >= threshold {
            if i - lastLoud > quietSamples { result.append(i) }
            lastLoud = i
        }
        return result
    }

    /// Fractional sample index of each burst's energy centre (from 10 ms before its onset to
    /// 20 ms after).
    static func centres(in samples: [Float], onsets: [Int], rate: Double) -> [Double] {
        onsets.compactMap { onset in
            let from = max(0, onset - Int(0.01 * rate)), to = min(samples.count, onset + Int(0.02 * rate))
            var energy = 0.0, moment = 0.0
            for i in from..<to {
                let e = Double(samples[i] * samples[i])
                energy += e
                moment += e * Double(i)
            }
            return energy > 0 ? moment / energy : nil
        }
    }

    /// The click whose centre the clock placed at media time `heardCentre`.
    static func match(heardCentre: Double, period: Double) -> HeardClick {
        let heard = heardCentre - TestSignals.clickLength / 2
        return HeardClick(click: (heard / period).rounded() * period, clock: heard)
    }
}

/// Median, p95 and max of absolute errors, for messages and docs.
struct ErrorSummary: CustomStringConvertible {
    let count: Int
    let median: Double
    let p95: Double
    let max: Double
    let mean: Double

    init(_ errors: [Double]) {
        let sorted = errors.map(abs).sorted()
        count = errors.count
        median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        p95 = sorted.isEmpty ? .nan : sorted[Swift.max(0, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
        max = sorted.last ?? .nan
        mean = errors.isEmpty ? .nan : errors.reduce(0, +) / Double(errors.count)
    }

    var description: String {
        func ms(_ x: Double) -> String { String(format: "%.2f ms", x * 1000) }
        return "n=\(count) median=\(ms(median)) p95=\(ms(p95)) max=\(ms(max)) mean=\(ms(mean))"
    }
}
