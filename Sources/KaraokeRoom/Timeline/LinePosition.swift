import SongModel

/// Where a media time falls within one part's lines: the current line (if inside one),
/// the next line, and the current syllable. Binary search, O(log n).
public struct LinePosition: Sendable, Equatable {
    public var line: Int?
    public var next: Int?
    public var syllable: Int?
    public var lineProgress: Double
    public var syllableProgress: Double

    public static func locate(_ time: Double, in lines: [LyricLine]) -> LinePosition {
        // Index of the last line starting at or before `time`.
        let started = lastIndex(in: lines.count, where: { lines[$0].start <= time })
        guard let index = started, time < lines[index].end else {
            let next = (started ?? -1) + 1
            return LinePosition(line: nil, next: next < lines.count ? next : nil, syllable: nil,
                                lineProgress: 0, syllableProgress: 0)
        }
        let line = lines[index]
        let syllables = line.syllables
        let syllable = lastIndex(in: syllables.count, where: { syllables[$0].start <= time })
        var syllableProgress = 0.0
        if let s = syllable {
            let span = syllables[s].end - syllables[s].start
            syllableProgress = span > 0 ? min(1, (time - syllables[s].start) / span) : 1
        }
        let span = line.end - line.start
        return LinePosition(
            line: index, next: index + 1 < lines.count ? index + 1 : nil, syllable: syllable,
            lineProgress: span > 0 ? min(1, max(0, (time - line.start) / span)) : 1,
            syllableProgress: syllableProgress)
    }

    /// Largest i in 0..<count with `predicate(i)` true, for a predicate true then false.
    private static func lastIndex(in count: Int, where predicate: (Int) -> Bool) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(mid) { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? low - 1 : nil
    }
}
