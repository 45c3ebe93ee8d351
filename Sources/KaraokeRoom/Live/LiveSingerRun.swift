import Foundation
import Scoring
import ScoreStore
import Synchronization

/// One singer's current scoring run: a fresh `ScoringSession` from a start position, who sings
/// which part, and where its lines are stored. A seek, loop jump or settings change ends the run
/// and starts a new one (see docs/live.md).
struct LiveSingerRun: Sendable {
    /// The song being sung (tags its events: they may reach the room after the next song was chosen).
    var songId = ""
    var singer: Int
    var name: String
    var part: Int
    var session: ScoringSession
    var recorder: LiveRunRecorder?
    /// False for a run that starts after the song's first line (a seek): a practice run that
    /// can never become a complete performance.
    var fromStart: Bool
    /// Media position the run starts from.
    var startPosition: Double
    /// Set by the worker once the clock plays near `startPosition`; until then nothing is judged.
    var armed = false
    /// Clock reading (media, wall) at the worker's last step, to notice jumps.
    var lastSeen: Double?
    var lastSeenWall = 0.0
    /// A calibrated phone seat's move since its calibration (`PhoneMicSlot.timingCorrection`),
    /// added to the run's mic delay while the song plays; nil for a PulseAudio mic, or a delay
    /// that did not come from calibration (a host's setting is the host's to change).
    var timingCorrection: (@Sendable () -> Double)?
    /// The part of the session's mic delay that came from `timingCorrection`.
    var appliedTimingCorrection = 0.0

    /// Moves the session's mic delay with the seat's timing, when it moved.
    mutating func followTiming() {
        guard let correction = timingCorrection?(), correction != appliedTimingCorrection else { return }
        session.setMicDelay(session.configuration.micDelay - appliedTimingCorrection + correction)
        appliedTimingCorrection = correction
    }
}
