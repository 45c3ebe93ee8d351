import AudioEngine
import Foundation

/// Measures one phone's delay the way `LatencyCalibrator` measures a PulseAudio microphone:
/// the room's speakers play its click sequence (a playback stream of its own, while the room's
/// track is stopped), the phone's audio is copied aside while it plays, and
/// `LatencyCalibrator.clickDelays` finds each click in it: phone sample → host time (clock
/// sync) → media time heard then (the calibration player's clock) − the click's own time.
/// The result is the phone's whole path: speakers, air, phone input, its audio clock mapping.
struct PhoneCalibrator {
    var output: String?
    var slot: PhoneMicSlot
    /// More clicks than for a PulseAudio mic: a phone's browser may slip its audio clock now
    /// and then, and the median of 10 shrugs off a few clicks heard across a slip. Wider gaps
    /// than a PulseAudio mic's (0.6 s growing to 1.08 s), so the clicks span 7.6 s, about what
    /// 10 clicks 0.8 s apart did. Any delay up to 2 s is measured
    /// (`ClickSchedule.defaultMeasurableDelays`): a phone's path (browser buffering, Wi-Fi, a
    /// starved box) has reached 802 ms.
    var clicks = 10
    var shortestGap = 0.6
    /// The phone's frames arrive over the network: listen this long past the track's end.
    static let listenPastEnd = 1.5

    var schedule: ClickSchedule { ClickSchedule(count: clicks, shortestGap: shortestGap) }

    func run() throws -> InputCalibration {
        guard slot.clockOffset != nil else {
            throw PhoneSeatError("the phone has not synchronised its clock yet; wait a second and try again")
        }
        let player = try PlaybackEngine(configuration: PlaybackEngine.Configuration(device: output))
        defer { player.close() }
        let schedule = self.schedule
        let signal = LatencyCalibrator.clickTrack(schedule, rate: player.sampleRate)
        player.load(track: TrackSource(left: signal, right: signal, sampleRate: player.sampleRate))
        slot.setTeeing(true)
        defer { slot.setTeeing(false) }
        var readers = [slot.calibrationChannel.makeReader()]
        player.play()
        let recording = ClickRecorder(schedule: schedule, listenPastEnd: Self.listenPastEnd)
            .record(&readers, rates: [PhoneMicSlot.sampleRate], player: player)[0]
        let (recorded, stamps) = (recording.samples, recording.stamps)
        let match = LatencyCalibrator.clickMatch(samples: recorded, stamps: stamps, rate: PhoneMicSlot.sampleRate,
                                                 clock: player.clock, schedule: schedule)
        let delays: [Double]
        do {
            delays = try LatencyCalibrator.measured(match, schedule: schedule, needed: max(1, clicks / 2), input: "phone")
        } catch let error as CalibrationError {
            throw PhoneSeatError(Self.explain(error, clicks: clicks, recorded: recorded, network: slot.status(now: HostClock.now())))
        }
        let sorted = delays.sorted()
        return InputCalibration(delaySeconds: sorted[sorted.count / 2], clicks: delays.count,
                                spreadSeconds: sorted.last! - sorted.first!, reportedInputLatency: nil,
                                reportedOutputLatency: player.outputLatency)
    }
}

extension PhoneCalibrator {
    /// A failed calibration in a guest's words, with what the room heard of the phone.
    static func explain(_ error: CalibrationError, clicks: Int, recorded: [Float], network: String?) -> String {
        let heard = String(format: "%.1f s of its audio, peak %.3f, network %@",
                           Double(recorded.count) / PhoneMicSlot.sampleRate, recorded.map(abs).max() ?? 0, network ?? "-")
        switch error {
        case .noClicksHeard:
            return "heard none of the \(clicks) calibration clicks from the phone (\(heard)): is it near the speakers, its microphone allowed?"
        case .delayOutOfRange(_, let delay, let range):
            return String(format: "the phone heard the calibration clicks %.2f s late, more than the %.1f s a calibration measures (%@): is its network very slow?",
                          delay, range.upperBound, heard)
        case .clicksDidNotLineUp(_, let sounds, let lined, _):
            return "heard \(lined) of \(clicks) calibration clicks from the phone, among \(sounds) sounds (\(heard)): is it near the speakers, and the room quiet?"
        }
    }
}

/// A phone seat request that cannot be met, with the reason for the page.
struct PhoneSeatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
