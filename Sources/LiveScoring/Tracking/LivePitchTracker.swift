import AudioEngine
import PitchDetection
import Scoring
import SongModel

/// One singer's microphone → `PitchSample`s in media time.
///
/// Pulls from the capture ring (never touching the record callback), runs our `PitchDetector`
/// and stamps every frame with the media time being heard when that sound entered the mic:
/// capture stamp (host time) → playback clock. Frames captured while playback was paused or
/// stopped are dropped. Mic delay stays in the samples; the scoring session removes it.
/// Given the engine's rendered-output tap, every block goes to the detector with what the
/// speakers played at its capture time, so the backing bleeding into the mic is suppressed.
/// Not thread-safe: one pitch worker thread owns it.
public final class LivePitchTracker {
    public let detector: PitchDetector
    private var reader: CaptureReader
    private let clock: PlaybackClock
    private let buffer: UnsafeMutableBufferPointer<Float>
    private let backing: PlayedBackingAligner?
    private let backingBuffer: UnsafeMutableBufferPointer<Float>
    /// The played side beside it (the suppressor fits the mic from both speakers).
    private let sideBuffer: UnsafeMutableBufferPointer<Float>
    /// Capture frame number of the first sample fed to the detector.
    private var firstFrame: Int64?
    /// Media time of the newest analysed frame (voiced or not).
    public private(set) var analysedThrough: Double?
    /// How far behind the clock lines may still wait for frames: the detector runs about half
    /// a window behind the mic; beyond this the microphone is taken as silent (lost, muted).
    public var maximumLag = 0.25
    /// Seconds by which this microphone's capture stamps run late (a phone: its stamps are the
    /// time its browser handled the audio, its mic delay later than the sound): the bleed
    /// reference is fetched that much earlier, so it leads the microphone as for a PulseAudio
    /// mic and the suppressor's 0–250 ms search finds the bleed. Read by the pitch worker.
    public var referenceShift: (@Sendable () -> Double)?
    /// How late the room's played backing arrives in this microphone's capture stamps (seconds):
    /// the reference's shift plus where the suppressor found the bleed, measured afresh each time
    /// `backingLagReadings` moves (the backing audible in the mic); nil until found. Its moves are
    /// the microphone path's own timing moving (a phone's browser buffering), measured by the music.
    public private(set) var backingLag: Double?
    public private(set) var backingLagReadings = 0
    private var lastConfirmations = 0

    /// - Parameter backing: what the room's speakers were fed (`PlaybackEngine.renderedOutput`);
    ///   nil analyses the microphone alone.
    public init(channel: CaptureChannel, clock: PlaybackClock, backing: RenderedOutputTap? = nil,
                configuration: PitchDetectorConfiguration = .init()) {
        var configuration = configuration
        // Until the suppressor has its own estimate, assume the bleed arrives just as the reference's lead.
        if backing != nil && configuration.bleed.initialDelaySeconds == 0 {
            configuration.bleed.initialDelaySeconds = PlayedBackingAligner.leadSeconds
        }
        detector = PitchDetector(sampleRate: channel.sampleRate, configuration: configuration)
        reader = channel.makeReader()
        self.clock = clock
        buffer = .allocate(capacity: 4096)
        buffer.initialize(repeating: 0)
        backingBuffer = .allocate(capacity: 4096)
        backingBuffer.initialize(repeating: 0)
        sideBuffer = .allocate(capacity: 4096)
        sideBuffer.initialize(repeating: 0)
        self.backing = backing.map { PlayedBackingAligner(tap: $0, clock: clock, micRate: channel.sampleRate, maxBlock: 4096) }
    }

    deinit {
        buffer.deallocate()
        backingBuffer.deallocate()
        sideBuffer.deallocate()
    }

    /// Whether blocks are analysed with the played backing as the bleed reference.
    public var suppressesBleed: Bool { backing != nil }

    /// Most audio one `poll` analyses: the worker judges lines between polls, so a detector
    /// slower than real time (a starved CPU, the bleed reference's extra work) must not keep it
    /// in here for ever (one run at load 11.7 judged no line of a whole song: the likely cause).
    public var maximumSecondsPerPoll = 0.25
    /// True when the last `poll` stopped at its budget with audio still waiting: lines are then
    /// judged only up to what was analysed (see `judgeablePosition`), not given up on.
    public private(set) var isBehind = false

    /// Analyses what was captured since the last call, up to `maximumSecondsPerPoll` of it (the
    /// rest waits for the next call); returns the new samples.
    public func poll() -> [PitchSample] {
        var out: [PitchSample] = []
        var budget = Int(detector.sampleRate * maximumSecondsPerPoll)
        defer { isBehind = budget <= 0 }
        while budget > 0 {
            let (n, captured) = reader.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<min(buffer.count, budget)]))
            budget -= n
            if n == 0 { break }
            if firstFrame == nil { firstFrame = reader.nextFrame - Int64(n) }
            let rate = detector.sampleRate
            var reference: UnsafeBufferPointer<Float>?, side: UnsafeBufferPointer<Float>?
            if let backing, let base = backingBuffer.baseAddress {
                backing.fill(base, side: sideBuffer.baseAddress, count: n, firstHostTime: captured.map { $0 - (referenceShift?() ?? 0) })
                reference = UnsafeBufferPointer(rebasing: backingBuffer[0..<n])
                side = UnsafeBufferPointer(rebasing: sideBuffer[0..<n])
            }
            detector.process(UnsafeBufferPointer(rebasing: buffer[0..<n]), backing: reference, backingSecond: side) { frame in
                let captureFrame = firstFrame! + Int64((frame.time * rate).rounded())
                guard let host = reader.hostTime(ofFrame: captureFrame),
                      let heard = clock.media(atHostTime: host), heard.playing else { return }
                analysedThrough = heard.time
                out.append(PitchSample(
                    time: heard.time,
                    midi: frame.isVoiced ? MusicalPitch.midi(fromHz: Double(frame.frequency)) : nil,
                    levelDb: Double(frame.levelDb)))
            }
        }
        if let alignment = detector.bleedAlignment, alignment.confirmations != lastConfirmations {
            lastConfirmations = alignment.confirmations
            backingLag = (referenceShift?() ?? 0) + alignment.seconds
            backingLagReadings += 1
        }
        return out
    }

    /// The position up to which lines can be judged when the clock reads `now`: the newest
    /// analysed frame, so a line's last beat is judged on all its frames (the detector emits a
    /// frame only once the mic has delivered the half window after it), but never more than
    /// `maximumLag` behind, so a silent or lost microphone still closes lines.
    public func judgeablePosition(at now: Double) -> Double {
        guard let analysedThrough, analysedThrough <= now else { return now - maximumLag }
        // Behind with audio waiting (a stalled worker catching up): the lines it holds are judged
        // once their audio is analysed; `maximumLag` is for a microphone that sends nothing.
        if isBehind { return analysedThrough }
        return max(analysedThrough, now - maximumLag)
    }
}
