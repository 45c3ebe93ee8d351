import Foundation

/// Records inputs while a click track plays, for a calibration: each input's samples with the
/// capture times of their blocks, until every input has heard every click of the schedule, or the
/// track ended `listenPastEnd` seconds ago, or the deadline (the track, that and 2 s) passed.
/// Both calibrations use it: the room's PulseAudio inputs (`LatencyCalibrator`) and a phone's
/// stream (`PhoneCalibrator` in KaraokeRoom).
public struct ClickRecorder {
    /// One input's recording: `stamps` give the capture time of the sample at `index`.
    public struct Recording: Sendable {
        public var samples: [Float] = []
        public var stamps: [(index: Int, time: Double)] = []
    }

    public let schedule: ClickSchedule
    public let listenPastEnd: Double
    /// How often (in 20 ms polls) the recorder checks whether every click has been heard.
    public static let pollsPerCheck = 10

    public init(schedule: ClickSchedule, listenPastEnd: Double) {
        self.schedule = schedule
        self.listenPastEnd = listenPastEnd
    }

    /// Records `readers` (at `rates`) while `player` plays the click track it was just started on.
    public func record(_ readers: inout [CaptureReader], rates: [Double], player: PlaybackEngine) -> [Recording] {
        precondition(readers.count == rates.count, "one rate per reader")
        var recordings = [Recording](repeating: Recording(), count: readers.count)
        var buffer = [Float](repeating: 0, count: 4800)
        let deadline = Date().addingTimeInterval(schedule.duration + listenPastEnd + 2)
        var endedAt: Date?
        var polls = 0
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            for i in readers.indices {
                while true {
                    let (n, t) = buffer.withUnsafeMutableBufferPointer { readers[i].read(into: $0) }
                    if n == 0 { break }
                    if let t { recordings[i].stamps.append((recordings[i].samples.count, t)) }
                    recordings[i].samples.append(contentsOf: buffer[0..<n])
                }
            }
            // Every click heard on every input: nothing is left to wait for (the track runs on
            // for the longest delay it can measure, 2 s).
            polls += 1
            if polls % Self.pollsPerCheck == 0, readers.indices.allSatisfy({ i in
                LatencyCalibrator.clickDelays(samples: recordings[i].samples, stamps: recordings[i].stamps, rate: rates[i],
                                              clock: player.clock, schedule: schedule).count == schedule.times.count
            }) { break }
            if !player.isPlaying {
                if endedAt == nil { endedAt = Date() }
                if Date().timeIntervalSince(endedAt!) > listenPastEnd { break }
            }
        }
        return recordings
    }
}
