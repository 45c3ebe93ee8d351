import RoomProtocol
import Scoring

/// Per-room settings that the live pipeline and every view follow.
public struct RoomSettings: Sendable, Equatable {
    public var key = 0
    public var tempo = 1.0
    public var loop: ClosedRange<Double>?
    public var difficulty: Difficulty = .medium
    /// Centre-channel cancellation of full-mix backing tracks (applies only to those).
    public var vocalReduction = false
    public var singers: [SingerPayload] = [
        SingerPayload(singer: 0, name: "Singer 1", part: 0, micDelayMs: 0),
        SingerPayload(singer: 1, name: "Singer 2", part: 1, micDelayMs: 0),
    ]

    public init() {}
}
