/// Maps wall-clock capture time to media time of the backing track, given the playback
/// position at one reference instant and the tempo since then. Live capture is stamped with
/// a monotonic clock; samples must be stamped in media time before they reach the session.
public struct MediaClock: Sendable, Equatable {
    /// Wall-clock seconds (any monotonic origin) of the reference instant.
    public var referenceWall: Double
    /// Media seconds being heard at `referenceWall`.
    public var referenceMedia: Double
    /// Media seconds per wall second.
    public var tempo: Double

    public init(referenceWall: Double, referenceMedia: Double, tempo: Double) {
        self.referenceWall = referenceWall
        self.referenceMedia = referenceMedia
        self.tempo = tempo
    }

    public func mediaTime(atWall wall: Double) -> Double {
        referenceMedia + (wall - referenceWall) * tempo
    }

    /// The offline case: a recording started at media time `start` while the track played at `tempo`.
    public static func recording(startingAt start: Double = 0, tempo: Double) -> MediaClock {
        MediaClock(referenceWall: 0, referenceMedia: start, tempo: tempo)
    }
}
