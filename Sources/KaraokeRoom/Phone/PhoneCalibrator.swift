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
        var reader = slot.calibrationChannel.makeReader()
        player.play()

        var recorded: [Float] = []
        var stamps: [(index: Int, time: Double)] = []
        var buffer = [Float](repeating: 0, count: 4800)
        let deadline = Date().addingTimeInterval(schedule.duration + Self.listenPastEnd + 2)
        var endedAt: Date?
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            while true {
                let (n, t) = buffer.withUnsafeMutableBufferPointer { reader.read(into: $0) }
                if n == 0 { break }
                if let t { stamps.append((recorded.count, t)) }
                recorded.append(contentsOf: buffer[0..<n])
            }
            if !player.isPlaying {
                if endedAt == nil { endedAt = Date() }
                if Date().timeIntervalSince(endedAt!) > Self.listenPastEnd { break }
            }
        }
        let delays = LatencyCalibrator.clickDelays(samples: recorded, stamps: stamps, rate: PhoneMicSlot.sampleRate,
                                                   clock: player.clock, schedule: schedule)
        guard delays.count >= max(1, clicks / 2) else {
            let peak = recorded.map(abs).max() ?? 0
            throw PhoneSeatError(String(format: "heard %d of %d calibration clicks from the phone (%.1f s of its audio, peak %.3f, network %@): is it near the speakers?",
                                        delays.count, clicks, Double(recorded.count) / PhoneMicSlot.sampleRate, peak,
                                        slot.status(now: HostClock.now()) ?? "-"))
        }
        let sorted = delays.sorted()
        return InputCalibration(delaySeconds: sorted[sorted.count / 2], clicks: delays.count,
                                spreadSeconds: sorted.last! - sorted.first!, reportedInputLatency: nil,
                                reportedOutputLatency: player.outputLatency)
    }
}

/// A phone seat request that cannot be met, with the reason for the page.
struct PhoneSeatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
