/// Finds the melody the lyrics are sung to: the (track, channel) whose note onsets fall on
/// the lyric syllables most often, drums (channel 10) excluded. Chords keep their top note.
struct MIDIMelody {
    struct Played {
        var startTick: Int
        var endTick: Int
        var key: Int
    }

    var notes: [Played] = []
    /// Syllables with a note starting on them, of all syllables.
    var matchedSyllables = 0
    var name = ""

    init(file: MIDIFile, syllableTicks: [Int], tolerance: Int) {
        var candidates: [String: [Played]] = [:]
        for (t, track) in file.tracks.enumerated() {
            var open: [Int: [Int]] = [:]  // channel*128+key → start ticks
            for timed in track {
                switch timed.event {
                case .noteOn(let channel, let key, _) where channel != 9:
                    open[channel * 128 + key, default: []].append(timed.tick)
                case .noteOff(let channel, let key) where channel != 9:
                    guard var starts = open[channel * 128 + key], !starts.isEmpty else { continue }
                    let start = starts.removeFirst()
                    open[channel * 128 + key] = starts
                    candidates["track \(t + 1) channel \(channel + 1)", default: []].append(Played(startTick: start, endTick: timed.tick, key: key))
                default:
                    continue
                }
            }
        }
        let sortedTicks = syllableTicks.sorted()
        func hits(_ played: [Played]) -> Int {
            let onsets = played.map(\.startTick).sorted()
            return sortedTicks.filter { tick in
                // Binary search for the nearest onset.
                var low = 0, high = onsets.count
                while low < high { let mid = (low + high) / 2; if onsets[mid] < tick - tolerance { low = mid + 1 } else { high = mid } }
                return low < onsets.count && abs(onsets[low] - tick) <= tolerance
            }.count
        }
        guard let best = candidates.map({ ($0.key, $0.value, hits($0.value)) })
            .max(by: { ($0.2, -$0.1.count, $1.0) < ($1.2, -$1.1.count, $0.0) }) else { return }
        name = best.0
        matchedSyllables = best.2
        // Monophonic: at one onset keep the highest key; cut a note where the next begins.
        var byStart: [Int: Played] = [:]
        for note in best.1 where byStart[note.startTick].map({ note.key > $0.key }) ?? true { byStart[note.startTick] = note }
        var line = byStart.values.sorted { $0.startTick < $1.startTick }
        for i in line.indices.dropLast() where line[i].endTick > line[i + 1].startTick { line[i].endTick = line[i + 1].startTick }
        notes = line.filter { $0.endTick > $0.startTick }
    }
}
