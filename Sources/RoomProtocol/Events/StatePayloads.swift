import Scoring

public enum TransportState: String, Codable, Sendable {
    case stopped, playing, paused
}

public struct LoopPayload: Codable, Sendable, Equatable {
    public var start: Double
    public var end: Double
    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}

public struct QueueItemPayload: Codable, Sendable, Equatable {
    /// Stable while the item is queued (use it for remove/move).
    public var itemId: Int
    public var songId: String
    public var title: String
    public var artist: String
    /// Who asked for it (the singer), when given.
    public var requestedBy: String?
    /// The song's length, and seconds from now until it should start (songs before it at the
    /// room's tempo, plus a changeover each); nil when unknown.
    public var duration: Double?
    public var startsIn: Double?
    public init(itemId: Int, songId: String, title: String, artist: String, requestedBy: String?) {
        self.itemId = itemId
        self.songId = songId
        self.title = title
        self.artist = artist
        self.requestedBy = requestedBy
    }
}

public struct SingerPayload: Codable, Sendable, Equatable {
    /// Microphone slot: 0 for the first microphone, 1 for the second.
    public var singer: Int
    public var name: String
    /// Which voice part this singer sings (duets).
    public var part: Int
    /// The room's mic delay setting, milliseconds (the `micDelay` command); 0 = not set, so the
    /// microphone's calibration or the server's default applies (see `effectiveMicDelayMs`).
    public var micDelayMs: Double
    /// Whether this singer's mic monitoring switch is on (the microphone is heard through the
    /// room's speakers, or will be as soon as its device is back: see `monitorWaiting`);
    /// nil (absent on the wire) when the singer has no microphone that can be monitored.
    public var monitor: Bool?
    /// True while `monitor` is on but the microphone is not heard because it, the speakers or
    /// the sound server went away; it is heard again by itself when they are back. Present
    /// exactly when `monitor` is.
    public var monitorWaiting: Bool?
    /// The singer's microphone's measured input latency, milliseconds (PulseAudio's timing of
    /// the capture stream); nil when the singer has no microphone or it has not been timed yet.
    public var inputLatencyMs: Double?
    /// The mic delay live scoring subtracts now, milliseconds; nil when nobody scores this singer.
    public var effectiveMicDelayMs: Double?
    /// Where `effectiveMicDelayMs` comes from; nil exactly when it is nil.
    public var micDelaySource: MicDelaySource?
    /// Where the singer's voice comes from: "phone" for a phone singer seat (the singer page as
    /// a microphone); nil (absent) for a PulseAudio microphone.
    public var source: String?
    /// A phone seat's network: "ok", "unstable" (frames arriving over 500 ms late) or "lost"
    /// (none for 1.5 s); nil for other seats.
    public var phoneStatus: String?
    /// This seat's own difficulty (set by the host, or by a phone when it took the seat); nil
    /// (absent) when the seat follows the room's `difficulty`.
    public var difficulty: Difficulty?
    /// True when a phone seat's timing has moved since its calibration (the backing arrives in
    /// its stream over 20 ms off where it did, for 3 s): the room calibrates it again once no
    /// song plays. Nil for other seats.
    public var needsCalibration: Bool?
    /// While such a seat is scored on a move the room follows (docs/phone-mics.md): how far, ms,
    /// already part of `effectiveMicDelayMs`. Absent otherwise.
    public var micDelayMovedMs: Double?

    public init(singer: Int, name: String, part: Int, micDelayMs: Double, monitor: Bool? = nil, monitorWaiting: Bool? = nil,
                inputLatencyMs: Double? = nil, effectiveMicDelayMs: Double? = nil, micDelaySource: MicDelaySource? = nil) {
        self.singer = singer
        self.name = name
        self.part = part
        self.micDelayMs = micDelayMs
        self.monitor = monitor
        self.inputLatencyMs = inputLatencyMs
        self.effectiveMicDelayMs = effectiveMicDelayMs
        self.micDelaySource = micDelaySource
        self.monitorWaiting = monitorWaiting
    }
}

/// The wait between two songs: the next song starts by itself `endsIn` seconds after the
/// state's `t` (the host can start it at once with `play`).
public struct IntermissionPayload: Codable, Sendable, Equatable {
    public var songId: String
    public var endsIn: Double
    public var seconds: Double
    /// Why the song does not start although the wait is over (a microphone calibration in
    /// progress); nil when nothing holds it.
    public var heldBy: String?
    public init(songId: String, endsIn: Double, seconds: Double, heldBy: String? = nil) {
        self.songId = songId
        self.endsIn = endsIn
        self.seconds = seconds
        self.heldBy = heldBy
    }
}

/// Everything needed to render the room: sent on every change and once a second.
public struct StatePayload: Codable, Sendable, Equatable {
    public var transport: TransportState
    /// Media seconds being heard at the event's `t`.
    public var position: Double
    public var duration: Double
    public var songId: String?
    /// Semitones relative to the original key.
    public var key: Int
    /// Playback speed ratio (1 = original).
    public var tempo: Double
    public var loop: LoopPayload?
    public var queue: [QueueItemPayload]
    public var difficulty: Difficulty
    public var singers: [SingerPayload]
    /// False in `--no-audio` mode (the clock runs, nothing is played or captured).
    public var audio: Bool
    /// The backing track's measured output latency, milliseconds (PulseAudio's timing of the
    /// playback stream: buffered audio plus the sink's own latency); nil without audio or
    /// while it is not known (no stream yet, device lost).
    public var outputLatencyMs: Double?
    /// True while the song's audio is being prepared (decoded, resampled): the song is shown,
    /// `transport` is `stopped` at 0, and seeking or looping is refused until it has loaded.
    public var loading: Bool
    /// While `loading`: playback starts by itself once the song has loaded (`play` was pressed,
    /// or the song came from next/previous/play-now/the queue); `pause` or `stop` clears it.
    public var playWhenLoaded: Bool
    /// The singer whose microphone is being calibrated (its test clicks are playing); nil
    /// otherwise. Commands that would start playback are refused meanwhile.
    public var calibratingSinger: Int?
    /// True when this run of the song is a practice run (a seek, loop, key or tempo change
    /// after the first line): it is not stored on the leaderboard.
    public var practice: Bool?
    /// Bumped when the song library changed on disk; clients ask for their page again.
    public var libraryVersion: Int?
    /// Seconds the room waits between songs (host setting).
    public var pauseBetweenSongs: Double?
    /// Large print on the TV displays, percent of normal (host setting; a display's own
    /// `#scale=` fragment wins on that display).
    public var displayScale: Double?
    /// Vocal reduction is switched on (host setting, kept while the room runs).
    public var vocalReduction: Bool?
    /// Which companion line the lyric views show under a line that has one (host setting; a
    /// view's own `#companions=` fragment wins on that view).
    public var lyricCompanions: LyricCompanionDisplay?
    /// …and applies to the song loaded now: its backing is a full mix. False for a song with an
    /// instrumental stem (`#INSTRUMENTAL`, `backing.*`) or a MIDI backing, which play as they are.
    public var vocalReductionActive: Bool?
    /// While the room waits before starting the next queued song (already loaded).
    public var intermission: IntermissionPayload?
    /// While the library is first being read (a first start): songs read so far; nil after.
    public var libraryIndexing: Int?
    /// The singer of the song playing (from the queue request), when known.
    public var singerName: String?

    public init(transport: TransportState, position: Double, duration: Double, songId: String?, key: Int,
                tempo: Double, loop: LoopPayload?, queue: [QueueItemPayload], difficulty: Difficulty,
                singers: [SingerPayload], audio: Bool, loading: Bool = false, playWhenLoaded: Bool = false,
                outputLatencyMs: Double? = nil, calibratingSinger: Int? = nil) {
        self.transport = transport
        self.position = position
        self.duration = duration
        self.songId = songId
        self.key = key
        self.tempo = tempo
        self.loop = loop
        self.queue = queue
        self.difficulty = difficulty
        self.singers = singers
        self.audio = audio
        self.loading = loading
        self.playWhenLoaded = playWhenLoaded
        self.outputLatencyMs = outputLatencyMs
        self.calibratingSinger = calibratingSinger
    }
}
