@testable import AudioEngine
import Testing
import TestSupport

/// The calibration's clicks are unevenly spaced, so a delay is measured whole, not modulo a
/// click period: with clicks every 0.8 s a phone's 802 ms path read 2 ms, and a PulseAudio mic
/// (every 0.5 s) over 0.4 s read 0.5 s short. Synthetic captures through a real `PlaybackClock`.
@Suite struct CalibrationClickMatchingTests {
    static let rate = 48_000.0
    /// The two schedules in use: a PulseAudio mic's (`LatencyCalibrator`) and a phone's (`PhoneCalibrator`).
    static let pulse = LatencyCalibrator(output: nil, inputs: []).schedule
    static let phone = ClickSchedule(count: 10, shortestGap: 0.6)

    /// What a run records when `schedule`'s track reaches the microphone `delay` s late: noise
    /// (±0.01), the clicks, and a door banging at twice their level between clicks 2 and 3, with
    /// its capture stamps (sample i captured at host 100 + i / rate) and a clock hearing media
    /// time t at host 100 + t. `losingLast`: the stream has a gap where the last click arrives
    /// (a phone's frames lost); evenly spaced clicks then fit the delay one gap shorter as well.
    struct Capture {
        var samples: [Float]
        var stamps: [(index: Int, time: Double)]
        let clock = PlaybackClock()

        init(schedule: ClickSchedule, delay: Double?, bang: Bool = true, losingLast: Bool = false,
             clickGain: Float = 1, bangLevel: Float = 1.6, keeping kept: Int? = nil) {
            let rate = CalibrationClickMatchingTests.rate
            clock.setSampleRate(rate)
            clock.append(ClockCheckpoint(outputFrame: 0, mediaTime: 0, rate: 1))
            clock.setRunning(true)
            clock.publish(playedFrame: 0, hostTime: 100, written: Int64(rate * 60))
            var generator = SeededGenerator(seed: 17)
            let length = Int((schedule.duration + 1) * rate)
            samples = (0..<length).map { _ in Float.random(in: -0.01...0.01, using: &generator) }
            if let delay {
                let shift = Int((delay * rate).rounded())
                // `kept`: only the first clicks arrive (the rest of the track lost).
                let end = kept.map { Int((schedule.times[$0 - 1] + 0.05) * rate) } ?? Int.max
                for (i, x) in LatencyCalibrator.clickTrack(schedule, rate: rate).enumerated() where i + shift < length && i < end {
                    samples[i + shift] += clickGain * x
                }
            }
            if let delay, losingLast {
                let at = Int((schedule.times.last! + delay) * rate)
                for i in (at - Int(0.05 * rate))..<min(length, at + Int(0.05 * rate)) { samples[i] = 0 }
            }
            if bang {
                let at = Int(((schedule.times[2] + schedule.times[3]) / 2 + (delay ?? 0)) * rate)
                for i in at..<(at + Int(0.005 * rate)) { samples[i] += Float.random(in: -bangLevel...bangLevel, using: &generator) }
            }
            // Stamped per 100 ms block, as a capture stream hands them over.
            stamps = stride(from: 0, to: length, by: 4800).map { (index: $0, time: 100 + Double($0) / rate) }
        }

        func delays(_ schedule: ClickSchedule) -> [Double] {
            LatencyCalibrator.clickDelays(samples: samples, stamps: stamps, rate: CalibrationClickMatchingTests.rate,
                                          clock: clock, schedule: schedule)
        }

        /// What a run reports: the delays, or the error it throws.
        func measured(_ schedule: ClickSchedule, needed: Int) -> Result<[Double], CalibrationError> {
            let match = LatencyCalibrator.clickMatch(samples: samples, stamps: stamps, rate: CalibrationClickMatchingTests.rate,
                                                     clock: clock, schedule: schedule)
            return Result { try LatencyCalibrator.measured(match, schedule: schedule, needed: needed, input: "mic") }
                .mapError { $0 as! CalibrationError }
        }
    }

    static func median(_ x: [Double]) -> Double? { x.isEmpty ? nil : x.sorted()[x.count / 2] }

    @Test(arguments: [0.05, 0.45, 0.75, 0.85, 1.3], [false, true])
    func aPulseMicsDelayIsMeasuredWhole(delay: Double, losingLast: Bool) throws {
        let delays = Capture(schedule: Self.pulse, delay: delay, losingLast: losingLast).delays(Self.pulse)
        // Every click heard, not the bang; each click's onset is its first loud sample, < 1 ms in.
        #expect(delays.count == (losingLast ? 7 : 8), "\(delays)")
        let measured = try #require(Self.median(delays))
        #expect(abs(measured - delay) < 0.002, "measured \(measured) for \(delay)")
    }

    @Test(arguments: [0.05, 0.45, 0.75, 0.85, 1.3], [false, true])
    func aPhonesDelayIsMeasuredWhole(delay: Double, losingLast: Bool) throws {
        let delays = Capture(schedule: Self.phone, delay: delay, losingLast: losingLast).delays(Self.phone)
        #expect(delays.count == (losingLast ? 9 : 10), "\(delays)")
        let measured = try #require(Self.median(delays))
        #expect(abs(measured - delay) < 0.002, "measured \(measured) for \(delay)")
    }

    @Test func aCaptureWithoutClicksYieldsNothing() {
        #expect(Capture(schedule: Self.pulse, delay: nil, bang: false).delays(Self.pulse).isEmpty, "noise alone")
        #expect(Capture(schedule: Self.pulse, delay: nil).delays(Self.pulse).isEmpty, "noise and a bang")
        #expect(Capture(schedule: Self.phone, delay: nil).delays(Self.phone).isEmpty, "noise and a bang")
    }

    /// A path longer than the schedule measures is no reading, not a shorter delay that lines
    /// up one click, or a bang and a click.
    @Test func aDelayBeyondTheRangeIsNotReadShorter() {
        #expect(Capture(schedule: Self.pulse, delay: 2.5).delays(Self.pulse).isEmpty)
        let upToOne = ClickSchedule(times: Self.phone.times, measurableDelays: -0.1...1.0)
        #expect(Capture(schedule: Self.phone, delay: 1.3).delays(upToOne).isEmpty)
        #expect(Capture(schedule: Self.phone, delay: 0.85).delays(upToOne).count == 10, "within the range it is read")
    }

    /// A bang twelve times as loud as the clicks (a door, a dropped microphone; the old threshold
    /// of 30 % of the loudest sample put every click under it) leaves them heard.
    @Test(arguments: [0.05, 0.85])
    func aBangFarLouderThanTheClicksDoesNotHideThem(delay: Double) throws {
        let capture = Capture(schedule: Self.pulse, delay: delay, clickGain: 0.1, bangLevel: 1)
        let delays = capture.delays(Self.pulse)
        #expect(delays.count == 8, "\(delays)")
        let measured = try #require(Self.median(delays))
        #expect(abs(measured - delay) < 0.002, "measured \(measured) for \(delay)")
    }

    /// A failed run says why: nothing heard, clicks heard too late to measure, or too few of
    /// them lining up.
    @Test func aFailedRunSaysWhatWasHeard() {
        #expect(Capture(schedule: Self.pulse, delay: nil).measured(Self.pulse, needed: 4) == .failure(.noClicksHeard(input: "mic")))
        guard case .failure(.delayOutOfRange(_, let delay, let range)) = Capture(schedule: Self.pulse, delay: 2.5).measured(Self.pulse, needed: 4)
        else { Issue.record("a 2.5 s path is not reported as one"); return }
        #expect(abs(delay - 2.5) < 0.002 && range.upperBound == 2.0, "\(delay)")
        let description = CalibrationError.delayOutOfRange(input: "mic", delay: delay, range: range).description
        #expect(description.contains("2.50 s late") && description.contains("2.0 s"), "\(description)")
        // Three of eight clicks arrive: they line up, but a median of three is no measurement.
        let few = Capture(schedule: Self.pulse, delay: 0.3, bang: false, keeping: 3).measured(Self.pulse, needed: 4)
        #expect(few == .failure(.clicksDidNotLineUp(input: "mic", heard: 3, lined: 3, needed: 4)), "\(few)")
        #expect(Capture(schedule: Self.pulse, delay: 0.3, keeping: 6).measured(Self.pulse, needed: 4).map(\.count) == .success(6))
    }

    /// Whatever two clicks are compared, their distance is no other two clicks' (±60 ms): the
    /// property that lets no wrong delay line up two onsets. And the run lengths stay as before.
    @Test(arguments: [0.4, 0.6])
    func everyClickToClickDistanceIsUnique(shortestGap: Double) {
        for count in 2...20 {
            let times = ClickSchedule(count: count, shortestGap: shortestGap).times
            #expect(times.count == count)
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(gaps.allSatisfy { $0 >= shortestGap - 1e-9 }, "\(gaps)")
            let distances = times.indices.flatMap { i in times[(i + 1)...].map { $0 - times[i] } }.sorted()
            let closest = zip(distances, distances.dropFirst()).map { $1 - $0 }.min() ?? .infinity
            #expect(closest >= ClickSchedule.distanceSeparation - 1e-9, "\(count) clicks: distances \(closest) apart")
        }
        #expect(Self.pulse.times.first == 0.5 && (4...5).contains(Self.pulse.times.last!), "\(Self.pulse.times)")
        #expect((8...9).contains(Self.phone.times.last!), "\(Self.phone.times)")
        #expect(ClickSchedule(count: 20, shortestGap: 0.4).times.last! < 33, "CalibrateCommand allows 20 clicks")
    }

    /// Matching alone, on heard media times: an echo of every click 0.15 s later fits as many
    /// onsets as the sound; the smaller delay wins. Onsets off every click are dropped.
    @Test func theEarlierOfTwoEquallyGoodDelaysWinsAndStraysAreDropped() {
        let schedule = Self.pulse
        let sound = schedule.times.map { $0 + 0.3 }, echo = schedule.times.map { $0 + 0.45 }
        let delays = schedule.delays(ofOnsetsHeardAt: (sound + echo + [0.1, 2.62]).sorted())
        #expect(delays.count == 8 && delays.allSatisfy { abs($0 - 0.3) < 1e-9 }, "\(delays)")
        // Onsets 24 ms apart fit one delay (±20 ms around 0.7 s), each kept with its own.
        let jittered = schedule.times.enumerated().map { $1 + 0.7 + ($0 % 2 == 0 ? 0.012 : -0.012) }
        let kept = schedule.delays(ofOnsetsHeardAt: jittered)
        #expect(kept.count == 8 && kept.allSatisfy { abs(abs($0 - 0.7) - 0.012) < 1e-9 }, "\(kept)")
    }
}
