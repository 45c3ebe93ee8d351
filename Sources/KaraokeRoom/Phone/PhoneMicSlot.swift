import AudioEngine
import EventServer
import LiveScoring
import Synchronization

/// One phone microphone seat's audio path: frames from the WebSocket thread (the producer)
/// → 16-bit samples to float → the lock-free `channel` ring with capture stamps, which the
/// same `LivePitchTracker` as a PulseAudio mic reads. The phone's sample index becomes host
/// time through the clock-sync offset; a gap of up to half a second (lost frames) is filled
/// with silence so sample numbering stays continuous. Nothing here blocks or allocates per frame.
public final class PhoneMicSlot: PhoneAudioReceiver, @unchecked Sendable {
    public let slot: Int
    public let channel: CaptureChannel
    /// While calibrating, frames are copied here too (the pitch worker owns `channel`'s reader).
    public let calibrationChannel: CaptureChannel
    /// Audio missing from the stream (a gap of `lostGap` or more: frames the page never sent,
    /// a reconnect): lines sung then are stored marked. A late stream is not a lost one: its
    /// lines wait for it (`lineWait`; see `LiveMicrophone.maximumLag`, `ClosedLine`).
    public let losses = InputLossLog()
    /// AllKaraoke's thresholds for the status shown: "lost" after this long without audio...
    public static let lostAfter = 1.5
    /// ...and "unstable" while frames arrive this much later than the best seen.
    public static let unstableLateness = 0.5
    /// A stream gap this long or longer is marked lost; shorter ones (a browser dropping a 23 ms
    /// capture chunk) are filled with silence and cost at most a beat.
    public static let lostGap = 0.25
    /// How long a line waits for a phone's audio before it is judged without it (stored marked):
    /// longer than `lostAfter`, because audio that comes late but whole is the singer's and should
    /// be scored on what it sang. A stall of the whole box held every phone's frames 1.3–1.5 s in
    /// the loaded browser runs (each phone "unstable" in the same second, then all frames at once),
    /// and a party's Wi-Fi can do the same; the ring holds 10 s. A phone that really stopped has
    /// its next line judged this long after its end (its status shows "lost" after `lostAfter`).
    /// Not longer: a song's last line must still close before the track ends (the demo: 3.5 s).
    public static let lineWait = 2.5
    /// What the phone sends, and what its ring holds after `HalfBandUpsampler` (the rate of a
    /// PulseAudio microphone and of the bleed reference).
    public static let frameRate = Double(PhoneAudioFrame.sampleRate)
    public static let sampleRate = 2 * frameRate
    /// Longest gap filled with silence; a longer one (a reconnect) starts a new stamp.
    static let maxFilledGap: UInt64 = UInt64(frameRate / 2)
    /// Index differences up to 2 ms are taken as the same stream position.
    static let jitterSamples: UInt64 = UInt64(frameRate * 0.002)

    private let seatedFlag = Atomic<Bool>(false)
    private let teeing = Atomic<Bool>(false)
    /// Host − phone audio clock (seconds), as bits; NaN until the page's first clock sync.
    private let offsetBits = Atomic<UInt64>(Double.nan.bitPattern)
    /// How many calibrations succeeded while seated (0: none), and whether the phone's timing has
    /// moved away since the last (`CalibrationDrift`, set by `PhoneSeats`).
    private let calibrationCount = Atomic<Int>(0)
    private let needsCalibrationFlag = Atomic<Bool>(false)
    /// How far the seat's timing has moved since its calibration while it is flagged (seconds,
    /// as bits; 0 otherwise): its runs add it to the calibrated delay until it calibrates again.
    private let timingCorrectionBits = Atomic<UInt64>(0.0.bitPattern)
    /// The newest `LivePitchTracker.backingLag` of this seat's stream (NaN: none yet), and how
    /// many have come: the timing the music itself measures in the phone's audio.
    private let backingLagBits = Atomic<UInt64>(Double.nan.bitPattern)
    private let backingLagCount = Atomic<Int>(0)
    private let lastArrivalBits = Atomic<UInt64>(0)
    /// How late the newest frame arrived beyond the best seen (network and buffering), seconds.
    private let excessLatenessBits = Atomic<UInt64>(0)
    private let framesReceived = Atomic<Int>(0)
    /// Stream discontinuities: gaps filled with silence, overlaps cut, gaps too long to fill.
    private let filledGaps = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    private let restarts = Atomic<Int>(0)
    private let bytesReceived = Atomic<Int>(0)
    // Producer (service thread) state.
    private var nextIndex: UInt64?
    /// Host time just after the newest sample written (its capture time through the offset).
    private var writtenThroughHost: Double?
    private var bestLateness = Double.infinity
    private var bestLatenessAt = 0.0
    /// The clock offset the best lateness was measured under.
    private var baselineOffset = Double.nan
    private let scratch: UnsafeMutableBufferPointer<Float>
    private let upsampled: UnsafeMutableBufferPointer<Float>
    private var upsampler = HalfBandUpsampler()
    /// 0: none; `Reset.sameSinger` or `Reset.newSinger` (asked by `PhoneSeats`, done by the producer).
    private let resetRequest = Atomic<UInt8>(0)
    private enum Reset {
        static let sameSinger: UInt8 = 1
        static let newSinger: UInt8 = 2
    }

    public init(slot: Int) {
        self.slot = slot
        channel = CaptureChannel(index: slot, sampleRate: Self.sampleRate, ringSeconds: 10)
        calibrationChannel = CaptureChannel(index: slot, sampleRate: Self.sampleRate, ringSeconds: 10)
        scratch = .allocate(capacity: max(PhoneAudioFrame.maxSamples, Int(Self.maxFilledGap)))
        scratch.initialize(repeating: 0)
        upsampled = .allocate(capacity: 2 * scratch.count)
        upsampled.initialize(repeating: 0)
    }

    deinit {
        scratch.deallocate()
        upsampled.deallocate()
    }

    public var isSeated: Bool { seatedFlag.load(ordering: .acquiring) }
    func setSeated(_ seated: Bool) {
        seatedFlag.store(seated, ordering: .releasing)
        if !seated {
            offsetBits.store(Double.nan.bitPattern, ordering: .releasing)
            calibrationCount.store(0, ordering: .releasing)
            needsCalibrationFlag.store(false, ordering: .releasing)
            setTimingCorrection(0)
        }
    }

    /// A calibration of this seat succeeded: its timing is watched afresh from now on.
    func markCalibrated() {
        calibrationCount.add(1, ordering: .acquiringAndReleasing)
        needsCalibrationFlag.store(false, ordering: .releasing)
        setTimingCorrection(0)
    }
    /// Which calibration the seat's delay comes from (1, 2, …); nil when it was not calibrated while seated.
    public var calibration: Int? {
        let count = calibrationCount.load(ordering: .acquiring)
        return count == 0 ? nil : count
    }

    /// The pitch worker's fresh measurement of how late the backing arrives in this stream.
    func noteBackingLag(_ lag: Double) {
        guard lag.isFinite else { return }
        backingLagBits.store(lag.bitPattern, ordering: .releasing)
        backingLagCount.add(1, ordering: .releasing)
    }
    /// The newest backing lag (seconds) and how many have been measured; nil before the first.
    public var backingLag: (seconds: Double, readings: Int)? {
        let count = backingLagCount.load(ordering: .acquiring)
        let value = Double(bitPattern: backingLagBits.load(ordering: .acquiring))
        return count == 0 || value.isNaN ? nil : (value, count)
    }
    public var needsCalibration: Bool { needsCalibrationFlag.load(ordering: .acquiring) }
    func setNeedsCalibration(_ needed: Bool) { needsCalibrationFlag.store(needed, ordering: .releasing) }
    /// The move the seat's runs follow until it calibrates again (seconds; 0: none). Set by `PhoneSeats`.
    public var timingCorrection: Double { Double(bitPattern: timingCorrectionBits.load(ordering: .acquiring)) }
    func setTimingCorrection(_ seconds: Double) { timingCorrectionBits.store(seconds.bitPattern, ordering: .releasing) }

    /// The page's clock-sync result: host seconds = phone audio seconds + `offset`.
    public func setClockOffset(_ offset: Double) {
        guard offset.isFinite else { return }
        offsetBits.store(offset.bitPattern, ordering: .releasing)
    }
    public var clockOffset: Double? {
        let value = Double(bitPattern: offsetBits.load(ordering: .acquiring))
        return value.isNaN ? nil : value
    }

    func setTeeing(_ on: Bool) {
        if on { calibrationChannel.samples.skip(Int.max) }
        teeing.store(on, ordering: .releasing)
    }

    /// Host time of the newest frame's arrival (0: none yet).
    public var lastArrival: Double { Double(bitPattern: lastArrivalBits.load(ordering: .acquiring)) }
    public var excessLateness: Double { Double(bitPattern: excessLatenessBits.load(ordering: .acquiring)) }
    public var frames: Int { framesReceived.load(ordering: .relaxed) }
    /// What the stream looked like, for the log when a seat is given up.
    public var streamSummary: String {
        "\(frames) frames, \(filledGaps.load(ordering: .relaxed)) gaps filled, \(overlaps.load(ordering: .relaxed)) overlaps cut, "
            + "\(restarts.load(ordering: .relaxed)) long gaps, \(channel.overruns) samples overrun, "
            + "audio lost \(losses.closedSpans.count) times (\((losses.closedSpans.seconds * 100).rounded() / 100) s)"
    }
    public var bytes: Int { bytesReceived.load(ordering: .relaxed) }

    /// Network status by AllKaraoke's thresholds: "lost" after 1.5 s without audio, "unstable"
    /// while frames arrive over 0.5 s later than the best seen; nil while not seated.
    public func status(now: Double) -> String? {
        guard isSeated else { return nil }
        let last = lastArrival
        if last == 0 || now - last > Self.lostAfter { return "lost" }
        return excessLateness > Self.unstableLateness ? "unstable" : "ok"
    }

    // MARK: - PhoneAudioReceiver (service thread)

    public func receive(_ frame: PhoneAudioFrame, samples: UnsafeRawBufferPointer) {
        let now = HostClock.now()
        lastArrivalBits.store(now.bitPattern, ordering: .releasing)
        framesReceived.add(1, ordering: .relaxed)
        bytesReceived.add(PhoneAudioFrame.headerBytes + samples.count, ordering: .relaxed)
        guard isSeated, let offset = clockOffset else { return }
        let rate = Double(frame.sampleRate)
        let reset = resetRequest.exchange(0, ordering: .acquiringAndReleasing)
        if reset != 0 {
            // The same singer's new stream (a reconnect): what fell between the old stream's end
            // and this frame was sung without audio. A new singer's run starts afresh.
            if reset == Reset.sameSinger, let end = writtenThroughHost {
                markGap(from: end, to: Double(frame.sampleIndex) / rate + offset)
            }
            writtenThroughHost = nil
            nextIndex = nil
            bestLateness = .infinity
            upsampler.reset()
        }
        let count = frame.sampleCount
        var index = frame.sampleIndex
        var skip = 0
        if let expected = nextIndex {
            // A page's stamp may wobble by a sample or two (clock mapping): keep the stream
            // contiguous rather than drop or insert samples, which would click.
            if index != expected, index + Self.jitterSamples >= expected, index <= expected + Self.jitterSamples {
                index = expected
            }
            if index + UInt64(count) <= expected { return }  // a repeat
            if index < expected {
                skip = Int(expected - index)  // overlaps what we have: keep the new part
                index = expected
                overlaps.add(1, ordering: .relaxed)
            } else if index > expected, index - expected <= Self.maxFilledGap {
                fill(silence: Int(index - expected), firstIndex: expected, offset: offset, rate: rate)
                filledGaps.add(1, ordering: .relaxed)
                markGap(from: Double(expected) / rate + offset, to: Double(index) / rate + offset)
            } else if index > expected {
                upsampler.reset()  // a long gap: start afresh rather than ring across it
                restarts.add(1, ordering: .relaxed)
                markGap(from: Double(expected) / rate + offset, to: Double(index) / rate + offset)
            }
        }
        // Lateness: arrival minus when its last sample was captured (clock-sync mapped). A new
        // offset is a new time base (the page's audio context slipped and its mapping followed):
        // the best lateness is learned again, or every frame after a slip looked late and the
        // lines sung then were stored as lost (a perfect run ended "interrupted").
        if offset != baselineOffset {
            baselineOffset = offset
            bestLateness = .infinity
        }
        let captured = Double(frame.sampleIndex + UInt64(count)) / rate + offset
        let lateness = now - captured
        if lateness < bestLateness || now - bestLatenessAt > 30 {
            bestLateness = lateness
            bestLatenessAt = now
        }
        excessLatenessBits.store(max(0, lateness - bestLateness).bitPattern, ordering: .releasing)
        let n = count - skip
        for i in 0..<n {
            let raw = samples.loadUnaligned(fromByteOffset: 2 * (skip + i), as: Int16.self)
            scratch[i] = Float(Int16(littleEndian: raw)) / 32768
        }
        write(n, firstIndex: index, offset: offset, rate: rate)
    }

    private func fill(silence count: Int, firstIndex: UInt64, offset: Double, rate: Double) {
        UnsafeMutableBufferPointer(rebasing: scratch[0..<count]).update(repeating: 0)
        write(count, firstIndex: firstIndex, offset: offset, rate: rate)
    }

    private func write(_ n: Int, firstIndex: UInt64, offset: Double, rate: Double) {
        guard let out = upsampled.baseAddress else { return }
        upsampler.process(UnsafeBufferPointer(rebasing: scratch[0..<n]), into: out)
        let block = UnsafeBufferPointer(rebasing: upsampled[0..<(2 * n)])
        // The upsampler's output lags its input by `delay` phone samples.
        let host = (Double(firstIndex) - Double(HalfBandUpsampler.delay)) / rate + offset
        Self.append(block, hostTime: host, to: channel)
        // The pitch worker analyses the frame now rather than at its next poll (never blocks).
        channel.arrival.signal()
        if teeing.load(ordering: .acquiring) { Self.append(block, hostTime: host, to: calibrationChannel) }
        nextIndex = firstIndex + UInt64(n)
        writtenThroughHost = Double(firstIndex + UInt64(n)) / rate + offset
    }

    /// Audio between these host times never came: marked lost when it is `lostGap` or longer.
    /// Rare (a gap, a reconnect), so the log's lock is taken here, never per frame.
    private func markGap(from start: Double, to end: Double) {
        guard end - start >= Self.lostGap else { return }
        losses.markLost(at: start)
        losses.markRestored(at: end)
    }

    private static func append(_ block: UnsafeBufferPointer<Float>, hostTime: Double, to target: CaptureChannel) {
        _ = target.stamps.write(CaptureStamp(frame: Int64(target.samples.totalWritten), hostTime: hostTime))
        let written = target.samples.write(block)
        if written < block.count { target.countOverrun(block.count - written) }
    }

    /// Forget the stream position at the next frame (a new seat holder, or a reconnect with a
    /// fresh audio clock): the producer owns that state, so it is only asked. A reconnect's
    /// silence is marked lost as a gap would be.
    func resetStream(sameSinger: Bool) {
        resetRequest.store(sameSinger ? Reset.sameSinger : Reset.newSinger, ordering: .releasing)
    }
}
