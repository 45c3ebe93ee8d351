/// When the calibration clicks play, and which microphone delay a capture of them shows.
///
/// Evenly spaced clicks tell a delay only modulo their period: a phone's 802 ms path under
/// clicks 0.8 s apart lined up with the click before and read 2 ms. Here every click-to-click
/// distance differs from every other by at least `distanceSeparation`, so shifted by any delay
/// but the true one, at most one heard click lands on a click again; the delay that lines up
/// the most onsets is the true one, whatever its size.
public struct ClickSchedule: Sendable, Equatable {
    /// Media times of the clicks (seconds), ascending.
    public var times: [Double]
    /// The delays it reports; an onset pattern that fits a delay outside them is no measurement.
    public var measurableDelays: ClosedRange<Double>

    /// Down to −0.1 s (a clock that places the sound a little late); up to 2 s, more than twice
    /// the slowest phone path seen (802 ms).
    public static let defaultMeasurableDelays: ClosedRange<Double> = -0.1...2.0
    /// How far an onset may sit from its click under the delay found (capture stamp jitter).
    public static let tolerance = 0.02
    /// Twice the tolerance plus 20 ms for the jitter of the two onsets: no wrong delay can put
    /// two onsets within tolerance of clicks.
    static let distanceSeparation = 0.06
    /// The first click waits for the playback stream to be running for certain.
    static let firstClick = 0.5
    /// Silence after the last click arrives at the longest measurable delay: the playback clock
    /// stands still once the track ends, and an onset heard after that would map to its end.
    static let tail = 0.3

    public init(times: [Double], measurableDelays: ClosedRange<Double> = Self.defaultMeasurableDelays) {
        self.times = times
        self.measurableDelays = measurableDelays
    }

    /// `count` clicks from 0.5 s on, each placed at the first 10 ms step at least `shortestGap`
    /// after the one before that keeps every click-to-click distance `distanceSeparation` away
    /// from the others (a greedy Golomb ruler): the gaps grow from `shortestGap` by about
    /// 60 ms each. 8 clicks from 0.4 s span 4.1 s; 10 from 0.6 s span 7.6 s.
    public init(count: Int, shortestGap: Double, measurableDelays: ClosedRange<Double> = Self.defaultMeasurableDelays) {
        precondition(shortestGap >= 0.2, "an onset needs 0.1 s of quiet before it, and a click's echo room to fade")
        // Whole milliseconds, so the distances compare exactly.
        let gap = Self.milliseconds(shortestGap), separation = Self.milliseconds(Self.distanceSeparation)
        var times = count > 0 ? [Self.milliseconds(Self.firstClick)] : []
        var distances: [Int] = []
        while times.count < count {
            var next = times.last! + gap
            while !Self.distances(from: next, to: times, stayApartFrom: distances, by: separation) { next += 10 }
            distances += times.map { next - $0 }
            times.append(next)
        }
        self.init(times: times.map { Double($0) / 1000 }, measurableDelays: measurableDelays)
    }

    /// Seconds of track: until the last click has arrived at the longest measurable delay.
    public var duration: Double { (times.last ?? 0) + max(0, measurableDelays.upperBound) + Self.tail }

    /// How a capture's onsets lined up with the clicks.
    public struct Match: Sendable, Equatable {
        /// Onsets heard at all.
        public var heard: Int
        /// The onsets that line up under the best delay, each one's own delay from its click;
        /// empty when no delay lines up two of them.
        public var lined: [Double]
        /// The median of `lined`, nil when it is empty.
        public var delay: Double? { lined.isEmpty ? nil : lined.sorted()[lined.count / 2] }
    }

    /// The delay under which the most onsets (media times heard when each was captured) lie
    /// within `tolerance` of a click, and each of those onsets' own delay from its click. Ties
    /// go to the smaller delay: an echo comes after the sound. Onsets off every click under it
    /// (noise, a clock slip) are dropped. Fewer than two lined up is no match (a lone onset fits
    /// some click under any delay).
    public func match(onsetsHeardAt heard: [Double]) -> Match {
        var best: (delay: Double, fits: Int)?
        // The ±tolerance window holding the most onsets' delays can start at one of them.
        for start in heard.flatMap({ h in times.map { h - $0 } }) {
            let delay = start + Self.tolerance
            let fits = delays(ofOnsetsHeardAt: heard, under: delay).count
            if let b = best, fits < b.fits || (fits == b.fits && delay >= b.delay) { continue }
            best = (delay, fits)
        }
        guard let best, best.fits >= 2 else { return Match(heard: heard.count, lined: []) }
        return Match(heard: heard.count, lined: delays(ofOnsetsHeardAt: heard, under: best.delay))
    }

    /// The lined-up onsets' delays (`match`), or none when their median is outside
    /// `measurableDelays`: a longer path is not read as a shorter one.
    public func delays(ofOnsetsHeardAt heard: [Double]) -> [Double] {
        let found = match(onsetsHeardAt: heard)
        guard let delay = found.delay, measurableDelays.contains(delay) else { return [] }
        return found.lined
    }

    /// The onsets lying within `tolerance` of a click under `delay`: each one's delay from it.
    func delays(ofOnsetsHeardAt heard: [Double], under delay: Double) -> [Double] {
        heard.compactMap { h in
            guard let click = times.min(by: { abs(h - delay - $0) < abs(h - delay - $1) }),
                  // A hair over: the onset a window starts at sits exactly `tolerance` off.
                  abs(h - delay - click) <= Self.tolerance + 1e-9 else { return nil }
            return h - click
        }
    }

    private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

    private static func distances(from next: Int, to times: [Int], stayApartFrom used: [Int], by separation: Int) -> Bool {
        times.allSatisfy { t in used.allSatisfy { abs(next - t - $0) >= separation } }
    }
}
