import Foundation
import Scoring
import ScoreStore
import Synchronization

/// One singer's current scoring run: a fresh `ScoringSession` from a start position, who sings
/// which part, and where its lines are stored. A seek, loop jump or settings change ends the run
/// and starts a new one (see docs/live.md).
public struct LiveSingerRun: Sendable {
    /// The song being sung (tags its events: they may reach the room after the next song was chosen).
    public var songId = ""
    public var singer: Int
    public var name: String
    public var part: Int
    public var session: ScoringSession
    public var recorder: LiveRunRecorder?
    /// False for a run that starts after the song's first line (a seek): a practice run that
    /// can never become a complete performance.
    public var fromStart: Bool
    /// Media position the run starts from.
    public var startPosition: Double
    /// Set by the worker once the clock plays near `startPosition`; until then nothing is judged.
    var armed = false
    /// Clock reading (media, wall) at the worker's last step, to notice jumps.
    var lastSeen: Double?
    var lastSeenWall = 0.0
    /// A calibrated phone seat's move since its calibration (`PhoneMicSlot.timingCorrection`),
    /// added to the run's mic delay while the song plays; nil for a PulseAudio mic, or a delay
    /// that did not come from calibration (a host's setting is the host's to change).
    public var timingCorrection: (@Sendable () -> Double)?
    /// The part of the session's mic delay that came from `timingCorrection`.
    var appliedTimingCorrection = 0.0

    public init(songId: String = "", singer: Int, name: String, part: Int, session: ScoringSession, recorder: LiveRunRecorder?,
                fromStart: Bool, startPosition: Double) {
        self.songId = songId
        self.singer = singer
        self.name = name
        self.part = part
        self.session = session
        self.recorder = recorder
        self.fromStart = fromStart
        self.startPosition = startPosition
    }

    /// Moves the session's mic delay with the seat's timing, when it moved.
    mutating func followTiming() {
        guard let correction = timingCorrection?(), correction != appliedTimingCorrection else { return }
        session.setMicDelay(session.configuration.micDelay - appliedTimingCorrection + correction)
        appliedTimingCorrection = correction
    }
}
