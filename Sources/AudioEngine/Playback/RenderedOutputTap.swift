import Synchronization

/// What the speakers were fed, by output frame: the mono mix ((L + R) / 2; the left channel
/// while vocal reduction cancels the centre, see `referenceSample`) of every frame the renderer wrote, after key and tempo change, fades, pauses and seeks — exactly what played.
/// The bleed suppressor's reference (docs/pitch.md, "Live use with bleed suppression").
/// Beside it, the side (L − R) / 2 of the same frames: the suppressor fits a microphone from
/// both, as it hears the two speakers in its own ratio (`sideSample`).
///
/// One writer (the render callback: no lock, no allocation — a copy into preallocated storage
/// and one atomic store) and any number of readers (one pitch worker per microphone). Frame `f`
/// lives in slot `f & mask` until `capacity` later frames overwrite it. Readers never block the
/// writer: they copy, then check that what they copied was not overwritten meanwhile. Only the
/// newest half of the ring is served, so a render block in flight (far shorter than half the
/// ring, ≈ 5 s) can never be overwriting what a reader copies.
public final class RenderedOutputTap: @unchecked Sendable {
    public let sampleRate: Double
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Float>
    /// The side of the same frames, same slots.
    private let sideStorage: UnsafeMutablePointer<Float>
    /// One past the newest frame written.
    private let end = Atomic<Int64>(0)

    /// - Parameter seconds: how much output history to keep (rounded up to a power of two frames).
    public init(sampleRate: Double, seconds: Double = 10) {
        self.sampleRate = sampleRate
        var size = 1
        while size < Int(sampleRate * seconds) { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        sideStorage = .allocate(capacity: size)
        sideStorage.initialize(repeating: 0, count: size)
    }

    deinit {
        storage.deallocate()
        sideStorage.deallocate()
    }

    /// Output frames readers can still fetch: the newest half of the ring.
    public var servedFrames: Int { capacity / 2 }

    /// One past the newest frame written.
    public var endFrame: Int64 { end.load(ordering: .acquiring) }

    // MARK: writer (render callback)

    /// One mono reference sample from a stereo output frame: the mix (L + R) / 2 — except when
    /// the centre was cancelled (vocal reduction: L = side + bass, R = −side + bass), where the
    /// mix would hold only the bass while the speakers play the side too, and the left channel
    /// (side + bass) is taken: every instrument the room hears, at its level.
    @inline(__always)
    static func referenceSample(left: Float, right: Float, centreCancelled: Bool) -> Float {
        centreCancelled ? left : 0.5 * (left + right)
    }

    /// The second reference channel: the side (L − R) / 2 (0 for a mono output). With the mono
    /// reference it spans both speakers, so the suppressor can fit any microphone's mix of them.
    @inline(__always)
    static func sideSample(left: Float, right: Float) -> Float {
        0.5 * (left - right)
    }

    /// Records `frames` interleaved stereo frames starting at output frame `frame`. Frames must
    /// follow on from the previous call (the renderer's output frame count never goes back).
    /// `centreCancelled`: the frames are vocal-reduced (see `referenceSample`).
    func write(interleaved: UnsafePointer<Float>, frames: Int, at frame: Int64, centreCancelled: Bool = false) {
        for i in 0..<frames {
            let slot = Int(truncatingIfNeeded: frame + Int64(i)) & mask
            let left = interleaved[2 * i], right = interleaved[2 * i + 1]
            storage[slot] = Self.referenceSample(left: left, right: right, centreCancelled: centreCancelled)
            sideStorage[slot] = Self.sideSample(left: left, right: right)
        }
        end.store(frame + Int64(frames), ordering: .releasing)
    }

    // MARK: readers (any thread)

    /// Copies output frames `start ..< start + count` into `out`; frames not written yet, or
    /// no longer held, read as silence. Returns false when any frame was unavailable.
    /// `side`: when given, receives the side of the same frames.
    @discardableResult
    public func copy(from start: Int64, count: Int, into out: UnsafeMutablePointer<Float>,
                     side: UnsafeMutablePointer<Float>? = nil) -> Bool {
        guard count > 0 else { return true }
        let newest = end.load(ordering: .acquiring)
        let oldest = newest - Int64(servedFrames)
        let lo = min(max(start, oldest), newest)
        let hi = max(min(start + Int64(count), newest), lo)
        var complete = lo == start && hi == start + Int64(count)
        for i in 0..<count {
            let f = start + Int64(i)
            let held = f >= lo && f < hi
            out[i] = held ? storage[Int(truncatingIfNeeded: f) & mask] : 0
            side?[i] = held ? sideStorage[Int(truncatingIfNeeded: f) & mask] : 0
        }
        // The writer may have run on meanwhile: anything that left the served half is suspect.
        let after = end.load(ordering: .acquiring) - Int64(servedFrames)
        if after > lo {
            let stale = Int(min(after, hi) - start)
            if stale > 0 {
                out.update(repeating: 0, count: min(stale, count))
                side?.update(repeating: 0, count: min(stale, count))
            }
            complete = false
        }
        return complete
    }
}
