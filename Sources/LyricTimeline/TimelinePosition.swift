/// Where a moment falls on a timeline (indices into `Timeline.lines`).
public struct TimelinePosition: Sendable, Equatable {
    /// The line being sung, nil outside lines.
    public var current: Int?
    /// The line before `current`; outside lines, the last line that has started.
    public var previous: Int?
    /// The first line that starts after the moment.
    public var next: Int?
    /// Index of the syllable of `current` that started last, and how far through it (0…1).
    public var syllable: Int?
    public var syllableProgress: Double = 0
    /// How far through `current` (0…1).
    public var lineProgress: Double = 0

    public init(current: Int?, previous: Int?, next: Int?) {
        self.current = current
        self.previous = previous
        self.next = next
    }
}
