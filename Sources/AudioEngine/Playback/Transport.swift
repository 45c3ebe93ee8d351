import Synchronization

/// What the listener asked for: play / pause / stop.
public enum TransportState: Int, Sendable {
    case stopped = 0, playing = 1, paused = 2
}

/// The control mailbox between the room (any thread) and the audio thread.
///
/// Control calls store the wanted state here and return at once; the audio thread compares it
/// with what it applied at the start of every write callback. Only atomics: the audio thread
/// never waits for a control call, and requests made while the device is gone are kept.
final class Transport: @unchecked Sendable {
    let state = Atomic<Int>(TransportState.stopped.rawValue)
    /// Bumped by every seek; the target is stored before the bump.
    let seekGeneration = Atomic<Int>(0)
    let seekTargetBits = Atomic<UInt64>(0)
    /// The last seek generation the audio thread applied.
    let appliedSeekGeneration = Atomic<Int>(0)
    let key = Atomic<Int>(0)
    let tempoBits = Atomic<UInt64>(1.0.bitPattern)
    /// Centre-channel cancellation of the track before Rubber Band (`VocalReducer`).
    let vocalReduction = Atomic<Bool>(false)
    // A–B loop under a sequence lock (two doubles must change together).
    let loopSequence = Atomic<Int>(0)
    let loopStartBits = Atomic<UInt64>(0)
    let loopEndBits = Atomic<UInt64>(0)
    let loopEnabled = Atomic<Bool>(false)
    /// Serialises control callers among themselves (never taken by the audio thread).
    let controlLock = Mutex<Void>(())

    /// Set by the audio thread when it stopped by itself at the track's end, with the media time
    /// it ended at; cleared by every control request. The end is rendered a stream buffer before
    /// it is heard, and until it is heard the song is still playing.
    let endedByTrack = Atomic<Bool>(false)
    let endedAtBits = Atomic<UInt64>(0)

    var requestedState: TransportState { TransportState(rawValue: state.load(ordering: .acquiring)) ?? .stopped }
    func request(_ s: TransportState) {
        endedByTrack.store(false, ordering: .releasing)
        state.store(s.rawValue, ordering: .releasing)
    }

    /// Audio thread: the track ended at media time `end` (the flag first, so a reader never sees
    /// "stopped" without knowing why).
    func trackEnded(at end: Double) {
        endedAtBits.store(end.bitPattern, ordering: .relaxed)
        endedByTrack.store(true, ordering: .releasing)
        state.store(TransportState.stopped.rawValue, ordering: .releasing)
    }

    /// The media time the track ended at, if the audio thread stopped it there and no control
    /// call came since.
    var trackEnd: Double? {
        endedByTrack.load(ordering: .acquiring) ? Double(bitPattern: endedAtBits.load(ordering: .relaxed)) : nil
    }

    func requestSeek(to seconds: Double) {
        controlLock.withLock { _ in
            seekTargetBits.store(max(0, seconds).bitPattern, ordering: .relaxed)
            seekGeneration.add(1, ordering: .releasing)
        }
    }

    var tempo: Double {
        get { Double(bitPattern: tempoBits.load(ordering: .acquiring)) }
        set { tempoBits.store(newValue.bitPattern, ordering: .releasing) }
    }

    func setLoop(_ range: ClosedRange<Double>?) {
        controlLock.withLock { _ in
            let s = loopSequence.load(ordering: .relaxed)
            loopSequence.store(s + 1, ordering: .relaxed)
            atomicMemoryFence(ordering: .releasing)
            loopStartBits.store((range?.lowerBound ?? 0).bitPattern, ordering: .relaxed)
            loopEndBits.store((range?.upperBound ?? 0).bitPattern, ordering: .relaxed)
            loopEnabled.store(range != nil, ordering: .relaxed)
            loopSequence.store(s + 2, ordering: .releasing)
        }
    }

    /// Reads the loop consistently; also returns its sequence number for change detection.
    func loop() -> (range: ClosedRange<Double>?, sequence: Int) {
        while true {
            let s1 = loopSequence.load(ordering: .acquiring)
            if s1 & 1 != 0 { continue }
            let a = Double(bitPattern: loopStartBits.load(ordering: .relaxed))
            let b = Double(bitPattern: loopEndBits.load(ordering: .relaxed))
            let on = loopEnabled.load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            if loopSequence.load(ordering: .relaxed) == s1 { return (on && b > a ? a...b : nil, s1) }
        }
    }
}
