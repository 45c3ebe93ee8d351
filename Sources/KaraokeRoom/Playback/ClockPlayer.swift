import EventServer
import Synchronization

/// A `RoomPlayer` that plays nothing and keeps exact media time from a monotonic clock,
/// honouring tempo, seeks, pauses and A–B loops. Used by `karaoke serve --no-audio`,
/// where the music plays elsewhere and this room only drives lyric screens.
public final class ClockPlayer: RoomPlayer {
    private struct Timing {
        var duration: Double = 0
        /// Media time at `anchorClock`.
        var anchorMedia: Double = 0
        var anchorClock: Double = 0
        var playing = false
        var tempo: Double = 1
        var loop: ClosedRange<Double>?
        var key = 0
    }

    private let clock: @Sendable () -> Double
    private let timing = Mutex(Timing())

    /// `clock` returns monotonic seconds; tests inject a manual one.
    public init(clock: @escaping @Sendable () -> Double = MonotonicClock.now) {
        self.clock = clock
    }

    /// Nothing to decode: the prepared "track" is its length; installing rewinds to 0.
    public func prepare(backingTrack path: String?, duration: Double,
                        isCancelled: @escaping @Sendable () -> Bool) throws -> PreparedTrack {
        let length = max(0, duration)
        return PreparedTrack(duration: length) { [self] in
            let now = clock()
            timing.withLock { $0 = Timing(duration: length, anchorClock: now, tempo: $0.tempo, key: $0.key) }
        }
    }

    public func play() {
        let now = clock()
        timing.withLock { t in
            var media = Self.position(of: t, at: now)
            if media >= t.duration { media = t.loop?.lowerBound ?? 0 }
            t.anchorMedia = media
            t.anchorClock = now
            t.playing = true
        }
    }

    public func pause() { rebase { $0.playing = false } }

    public func stop() {
        let now = clock()
        timing.withLock { t in
            t.playing = false
            t.anchorMedia = 0
            t.anchorClock = now
        }
    }

    public func seek(to mediaSeconds: Double) {
        let now = clock()
        timing.withLock { t in
            t.anchorMedia = min(max(0, mediaSeconds), t.duration)
            t.anchorClock = now
        }
    }

    public func setKey(semitones: Int) { timing.withLock { $0.key = semitones } }
    public func setTempo(_ ratio: Double) { rebase { $0.tempo = ratio } }
    public func setLoop(_ range: ClosedRange<Double>?) { rebase { $0.loop = range } }

    public var position: Double {
        let now = clock()
        return timing.withLock { Self.position(of: $0, at: now) }
    }

    public var isPlaying: Bool {
        let now = clock()
        return timing.withLock { $0.playing && Self.position(of: $0, at: now) < $0.duration }
    }

    /// Nothing is played, so there is no output latency to report.
    public var outputLatency: Double? { nil }

    /// Key shift last set (there is no audio to transpose; kept for the room's state).
    public var key: Int { timing.withLock { $0.key } }

    /// Folds the time played so far into the anchor, then applies `change`.
    private func rebase(_ change: (inout Timing) -> Void) {
        let now = clock()
        timing.withLock { t in
            t.anchorMedia = Self.position(of: t, at: now)
            t.anchorClock = now
            change(&t)
        }
    }

    private static func position(of t: Timing, at now: Double) -> Double {
        guard t.playing else { return t.anchorMedia }
        var media = t.anchorMedia + max(0, now - t.anchorClock) * t.tempo
        if let loop = t.loop, t.anchorMedia < loop.upperBound, media >= loop.upperBound {
            let length = loop.upperBound - loop.lowerBound
            media = length > 0 ? loop.lowerBound + (media - loop.upperBound).truncatingRemainder(dividingBy: length) : loop.lowerBound
        }
        return min(media, t.duration)
    }
}
