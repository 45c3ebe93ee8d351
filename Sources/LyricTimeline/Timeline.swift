import SongModel

/// The lines of one voice part in time order, answering "which line is being sung now?"
/// in O(log n).
///
/// Semantics (what a karaoke display and the scorer need):
/// - `lineIndex(at:)` is the line *being sung*: the latest-starting line with
///   `start ≤ t < end`. Before the first line, in a gap between a line's end and the next
///   line's start, and after the last line it is nil. (Lines of one part do not overlap in
///   practice; if they do, the later-starting line wins.)
/// - `lookup(at:)` adds what a display shows around it: the previous line (started, maybe
///   over), the upcoming line, and the syllable being sung with its progress.
public struct Timeline: Sendable, Equatable {
    public let lines: [LyricLine]
    /// `lines[i].start`, for the binary search.
    private let starts: [Double]

    /// Lines are ordered by start time (stably) if they are not already.
    public init(lines: [LyricLine]) {
        let sorted = zip(lines.indices, lines).sorted { ($0.1.start, $0.0) < ($1.1.start, $1.0) }.map(\.1)
        self.lines = sorted
        self.starts = sorted.map(\.start)
    }

    public init(part: VoicePart) { self.init(lines: part.lines) }

    public var isEmpty: Bool { lines.isEmpty }
    public var startTime: Double? { lines.first?.start }
    public var endTime: Double? { lines.map(\.end).max() }

    /// Index of the last line with `start ≤ t`, nil if none (binary search).
    public func lastStartedIndex(at t: Double) -> Int? {
        var low = 0, high = starts.count  // invariant: starts[..<low] ≤ t < starts[high...]
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The line being sung at media time `t`, nil before, between and after lines.
    public func lineIndex(at t: Double) -> Int? {
        guard t.isFinite, let i = lastStartedIndex(at: t), t < lines[i].end else { return nil }
        return i
    }

    /// The line being sung at a playback time, through a tempo/offset mapping.
    public func lineIndex(atPlaybackTime p: Double, mapping: TimeMapping) -> Int? {
        lineIndex(at: mapping.mediaTime(fromPlayback: p))
    }

    public func lookup(at t: Double) -> TimelinePosition {
        guard t.isFinite else { return TimelinePosition(current: nil, previous: nil, next: lines.isEmpty ? nil : 0) }
        let started = lastStartedIndex(at: t)
        let next = (started ?? -1) + 1 < lines.count ? (started ?? -1) + 1 : nil
        guard let started, t < lines[started].end else {
            return TimelinePosition(current: nil, previous: started, next: next)
        }
        let line = lines[started]
        var position = TimelinePosition(current: started, previous: started > 0 ? started - 1 : nil, next: next)
        let duration = line.end - line.start
        position.lineProgress = duration > 0 ? min(1, max(0, (t - line.start) / duration)) : 1
        // Syllables are few per line; the last one that has started is being sung or was just sung.
        if let s = line.syllables.lastIndex(where: { $0.start <= t }) {
            let syllable = line.syllables[s]
            position.syllable = s
            let length = syllable.end - syllable.start
            position.syllableProgress = length > 0 ? min(1, max(0, (t - syllable.start) / length)) : 1
        }
        return position
    }
}

extension Timeline {
    /// One timeline per voice part of a song, in part order.
    public static func parts(of song: Song) -> [Timeline] { song.parts.map(Timeline.init(part:)) }
}
