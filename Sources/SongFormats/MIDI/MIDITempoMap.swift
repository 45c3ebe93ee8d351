/// Ticks to seconds through the file's tempo changes (`FF 51`, microseconds per quarter note).
struct MIDITempoMap {
    private var segments: [(tick: Int, seconds: Double, secondsPerTick: Double)]
    /// The first tempo, in quarter notes per minute (120 when the file sets none).
    let initialBPM: Double

    init(file: MIDIFile) {
        if let perSecond = file.ticksPerSecond {
            segments = [(0, 0, 1 / perSecond)]
            initialBPM = 120
            return
        }
        let perQuarter = Double(file.ticksPerQuarter ?? 480)
        var changes: [(tick: Int, microseconds: Int)] = []
        for track in file.tracks {
            for timed in track {
                if case .meta(0x51, let data) = timed.event, data.count == 3 {
                    let us = Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2])
                    if us > 0 { changes.append((timed.tick, us)) }
                }
            }
        }
        changes.sort { $0.tick < $1.tick }
        var segments: [(tick: Int, seconds: Double, secondsPerTick: Double)] = [(0, 0, 0.5 / perQuarter)]
        for change in changes {
            let last = segments[segments.count - 1]
            let seconds = last.seconds + Double(change.tick - last.tick) * last.secondsPerTick
            let perTick = Double(change.microseconds) / 1_000_000 / perQuarter
            if change.tick == last.tick { segments[segments.count - 1].secondsPerTick = perTick } else { segments.append((change.tick, seconds, perTick)) }
        }
        self.segments = segments
        initialBPM = 60 / (segments[0].secondsPerTick * perQuarter)
    }

    func seconds(atTick tick: Int) -> Double {
        // Binary search for the last segment starting at or before `tick`.
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].tick <= tick { low = mid } else { high = mid - 1 }
        }
        let s = segments[low]
        return s.seconds + Double(tick - s.tick) * s.secondsPerTick
    }
}
