/// The audio-thread half of playback: turns the transport mailbox, the track and the stretcher
/// into interleaved stereo frames, and records where each media time lands in the output.
///
/// Runs only inside the PulseAudio write callback (or a test), never concurrently with itself.
/// No allocation, no locks, no logging: everything is preallocated in `init`.
/// Discontinuities (pause, stop, seek, loop jump, end) fade out over `fadeFrames` first and
/// fade back in, so they never click.
///
/// A key or tempo change while playing is handled like a seek to where playback is: fade out,
/// re-prime the stretcher with the new settings at that media time, fade in (≈ 11 ms dip, no
/// gap). Changing Rubber Band's ratios on the running instance would avoid the dip, but moves
/// its latency by an amount it does not report (measured 2–36 ms, depending on the change),
/// and the position must stay exact: it is the clock the lyrics and scoring run on.
///
/// Vocal reduction (`VocalReducer`) works on the track's samples as the stretcher pulls them,
/// before Rubber Band, so key and tempo change act on the reduced mix and the tap — the bleed
/// reference — holds what the speakers really play. Switching it is a settings change like key
/// and tempo (the stretcher holds samples of the old mode): fade, re-prime, fade in.
final class PlaybackRenderer {
    static let fadeFrames = 256
    static let chunkFrames = 1024

    private enum Action { case none, fade, end }

    let sampleRate: Double
    let clock: PlaybackClock
    let transport: Transport
    /// Every frame written, mono-mixed: the bleed suppressor's reference.
    let tap: RenderedOutputTap
    private let stretcher: KeyTempoStretcher
    /// Swapped only under the PulseAudio mainloop lock (see `PlaybackEngine.load`).
    var track: TrackSource?

    /// Frames written so far (the stream write index, continued across reconnects).
    private(set) var outputFrame: Int64 = 0
    /// Next track frame the stretcher reads.
    private var readFrame = 0
    private var playing = false
    /// The mapping being rendered now (mirrors the newest clock checkpoint).
    private var segment = ClockCheckpoint(outputFrame: 0, mediaTime: 0, rate: 0)

    private var gain: Float = 1
    private var fadeRemaining = 0
    private var fadeIn = false
    private var action = Action.none
    /// Where to continue once the current fade-out is over.
    private var pendingSeek: Double?

    /// Key and tempo the stretcher was primed with (set only when it is primed).
    private var appliedKey = 0
    private var appliedTempo = 1.0
    private var appliedVocalReduction = false
    private var reducer: VocalReducer
    private var appliedSeek = 0
    private var appliedLoopSequence = -1
    private var loopRange: ClosedRange<Double>?

    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>

    init(sampleRate: Double, clock: PlaybackClock, transport: Transport) {
        self.sampleRate = sampleRate
        self.clock = clock
        self.transport = transport
        stretcher = KeyTempoStretcher(sampleRate: sampleRate)
        reducer = VocalReducer(sampleRate: sampleRate)
        tap = RenderedOutputTap(sampleRate: sampleRate)
        left = .allocate(capacity: Self.chunkFrames)
        right = .allocate(capacity: Self.chunkFrames)
        left.initialize(repeating: 0, count: Self.chunkFrames)
        right.initialize(repeating: 0, count: Self.chunkFrames)
        clock.setSampleRate(sampleRate)
        clock.append(segment)
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// Continues the output frame count on a new stream (after a reconnect).
    func setOutputFrame(_ frame: Int64) { outputFrame = frame }

    /// Called (under the mainloop lock) after a new track was swapped in: stopped at 0.
    func trackChanged() {
        playing = false
        action = .none
        fadeRemaining = 0
        readFrame = 0
        appliedSeek = transport.seekGeneration.load(ordering: .acquiring)
        transport.appliedSeekGeneration.store(appliedSeek, ordering: .releasing)
        if track != nil { primeAt(0) }
        checkpoint(ClockCheckpoint(outputFrame: outputFrame, mediaTime: 0, rate: 0))
    }

    /// The stream died: whatever was written but not heard is gone. Stop at `heard`, which the
    /// next stream (starting at the current output frame) continues from.
    func halt(at heard: Double) {
        playing = false
        action = .none
        pendingSeek = nil
        fadeRemaining = 0
        fadeIn = false
        gain = 0
        reposition(to: heard, at: outputFrame)
        clock.publish(playedFrame: Double(outputFrame), hostTime: HostClock.now(), written: outputFrame, advancing: false)
    }

    /// Media time of output frame `frame` as rendered (not yet heard).
    private func media(at frame: Int64) -> Double {
        segment.mediaTime + Double(frame - segment.outputFrame) / sampleRate * segment.rate
    }

    private func checkpoint(_ cp: ClockCheckpoint) {
        segment = cp
        clock.append(cp)
    }

    /// The listener asked for another key or tempo than the stretcher was primed with.
    private var settingsChanged: Bool {
        transport.key.load(ordering: .acquiring) != appliedKey || transport.tempo != appliedTempo
            || transport.vocalReduction.load(ordering: .acquiring) != appliedVocalReduction
    }

    /// The stretcher's input: `count` track frames from `readFrame` on, vocal-reduced if asked.
    private func pull(_ track: TrackSource, left l: UnsafeMutablePointer<Float>, right r: UnsafeMutablePointer<Float>, count n: Int) {
        track.copy(from: readFrame, count: n, left: l, right: r)
        readFrame += n
        if appliedVocalReduction { reducer.process(left: l, right: r, count: n) }
    }

    // MARK: rendering

    /// Fills `frames` interleaved stereo frames at `out`.
    func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        applyRequests()
        var done = 0
        while done < frames {
            let frame = outputFrame + Int64(done)
            guard playing, let track else {
                (out + done * 2).update(repeating: 0, count: (frames - done) * 2)
                break
            }
            var chunk = min(frames - done, Self.chunkFrames)
            if fadeRemaining == 0 && !fadeIn {
                // Look one fade ahead for the loop end and the track end.
                let ahead = media(at: frame + Int64(chunk + Self.fadeFrames))
                if let loop = loopRange, ahead >= loop.upperBound, media(at: frame) < loop.upperBound + 0.05 {
                    pendingSeek = loop.lowerBound
                    startFadeOut(.fade)
                } else if ahead >= track.duration {
                    startFadeOut(.end)
                }
            }
            if fadeRemaining > 0 { chunk = min(chunk, fadeRemaining) }
            stretcher.render(count: chunk, left: left, right: right) { l, r, n in
                pull(track, left: l, right: r, count: n)
            }
            let dst = out + done * 2
            if fadeRemaining > 0 {
                let step = 1 / Float(Self.fadeFrames)
                for i in 0..<chunk {
                    gain = fadeIn ? min(1, gain + step) : max(0, gain - step)
                    dst[2 * i] = left[i] * gain
                    dst[2 * i + 1] = right[i] * gain
                }
                fadeRemaining -= chunk
            } else {
                for i in 0..<chunk {
                    dst[2 * i] = left[i]
                    dst[2 * i + 1] = right[i]
                }
            }
            done += chunk
            if fadeRemaining == 0 {
                if fadeIn { fadeIn = false; gain = 1 } else if case .none = action {} else {
                    finishFadeOut(at: outputFrame + Int64(done))
                }
            }
        }
        tap.write(interleaved: out, frames: frames, at: outputFrame, centreCancelled: appliedVocalReduction)
        outputFrame += Int64(frames)
    }

    private func startFadeOut(_ next: Action) {
        action = next
        fadeIn = false
        fadeRemaining = max(1, Int(gain * Float(Self.fadeFrames)))
    }

    private func startFadeIn() {
        fadeIn = true
        fadeRemaining = max(1, Int((1 - gain) * Float(Self.fadeFrames)))
    }

    /// The fade-out before a discontinuity is over: apply what is wanted now.
    private func finishFadeOut(at frame: Int64) {
        let ended: Bool
        if case .end = action { ended = true } else { ended = false }
        action = .none
        gain = 0
        if ended {
            playing = false
            pendingSeek = nil
            checkpoint(ClockCheckpoint(outputFrame: frame, mediaTime: track?.duration ?? 0, rate: 0))
            transport.trackEnded(at: track?.duration ?? 0)
            return
        }
        let want = transport.requestedState
        if want == .stopped {
            pendingSeek = nil
            playing = false
            reposition(to: 0, at: frame)
            return
        }
        let keepPlaying = want == .playing
        if let t = pendingSeek {
            pendingSeek = nil
            reposition(to: t, at: frame, playing: keepPlaying)
        } else if settingsChanged {
            reposition(to: media(at: frame), at: frame, playing: keepPlaying)
        } else {
            checkpoint(ClockCheckpoint(outputFrame: frame, mediaTime: media(at: frame), rate: keepPlaying ? appliedTempo : 0))
        }
        playing = keepPlaying
        if keepPlaying { startFadeIn() }
    }

    /// Resets the stretcher (to the wanted key and tempo) at media time `t`; `t` is heard from
    /// output frame `frame` on, advancing at the new tempo if `playing`.
    private func reposition(to t: Double, at frame: Int64, playing: Bool = false) {
        let target = min(max(0, t), track?.duration ?? 0)
        primeAt(target)
        checkpoint(ClockCheckpoint(outputFrame: frame, mediaTime: target, rate: playing ? appliedTempo : 0))
    }

    /// Resets the stretcher to the wanted key and tempo and primes it so that its next output
    /// frame is media time `t`.
    private func primeAt(_ t: Double) {
        applySettings()
        guard let track else { return }
        readFrame = Int((t * sampleRate).rounded()) - stretcher.startPad
        reducer.reset()
        stretcher.reposition { l, r, n in
            pull(track, left: l, right: r, count: n)
        }
    }

    private func applySettings() {
        let key = transport.key.load(ordering: .acquiring)
        if key != appliedKey {
            appliedKey = key
            stretcher.setKey(semitones: key)
        }
        let tempo = transport.tempo
        if tempo != appliedTempo {
            appliedTempo = tempo
            stretcher.setTempo(tempo)
        }
        appliedVocalReduction = transport.vocalReduction.load(ordering: .acquiring)
    }

    // MARK: requests

    private func applyRequests() {
        let frame = outputFrame
        if settingsChanged {
            if track == nil {
                applySettings()
            } else if playing {
                // finishFadeOut primes the stretcher with the new settings where the fade ends.
                if !isFadingOut { startFadeOut(.fade) }
            } else if !isFadingOut {
                reposition(to: segment.mediaTime, at: frame)
            }
        }
        let loop = transport.loop()
        if loop.sequence != appliedLoopSequence {
            appliedLoopSequence = loop.sequence
            loopRange = loop.range
            if let range = loopRange, playing, case .none = action, media(at: frame) > range.upperBound {
                pendingSeek = range.lowerBound
                startFadeOut(.fade)
            }
        }
        guard track != nil else { return }
        let seekGen = transport.seekGeneration.load(ordering: .acquiring)
        if seekGen != appliedSeek {
            appliedSeek = seekGen
            let target = Double(bitPattern: transport.seekTargetBits.load(ordering: .relaxed))
            if playing {
                pendingSeek = target
                if !isFadingOut { startFadeOut(.fade) }
            } else {
                reposition(to: target, at: frame)
            }
            transport.appliedSeekGeneration.store(seekGen, ordering: .releasing)
        }
        switch transport.requestedState {
        case .playing:
            if !playing {
                var start = segment.mediaTime
                if let track, start >= track.duration - 0.001 {
                    start = 0
                    primeAt(0)
                }
                playing = true
                action = .none
                gain = 0
                checkpoint(ClockCheckpoint(outputFrame: frame, mediaTime: start, rate: appliedTempo))
                startFadeIn()
            } else if isFadingOut, pendingSeek == nil, !settingsChanged, case .fade = action {
                // Resumed during the pause fade: fade back in from where we are.
                action = .none
                startFadeIn()
            }
        case .paused, .stopped:
            if playing {
                if !isFadingOut { startFadeOut(.fade) }
            } else if transport.requestedState == .stopped && segment.mediaTime != 0 && !endHold {
                reposition(to: 0, at: frame)
            }
        }
    }

    private var isFadingOut: Bool {
        if case .none = action { return false }
        return true
    }

    /// After the track ended the transport says "stopped" but the position stays at the end.
    private var endHold: Bool {
        guard let track else { return false }
        return segment.mediaTime >= track.duration - 0.0005
    }
}
