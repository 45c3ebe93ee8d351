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
}
