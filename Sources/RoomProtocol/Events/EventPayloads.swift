/// Sent on connect (as `display`) and again after every `hello` command with the granted role.
public struct HelloPayload: Codable, Sendable, Equatable {
    public var protocolVersion: Int
    public var clientId: UInt64
    public var role: ClientRole
    public var room: String
    public var song: SongPayload?
    /// No longer sent (a big library is asked for page by page with `library`); kept optional
    /// so older captures still decode.
    public var library: [SongSummary]?
    /// Songs in the library (after folding one song's several formats into one).
    public var librarySize: Int?
    public var state: StatePayload
    /// Line results of the current song so far.
    public var results: [LineScorePayload]
    /// True when `song` is left out because this client already has it (a role change).
    public var songUnchanged: Bool?
    /// Only in the answer to a successful host `hello`: a host session token for reconnects
    /// (`{"type":"hello","role":"host","token":…}`), valid for `hostTokenExpiresIn` seconds.
    public var hostToken: String?
    public var hostTokenExpiresIn: Double?
    /// True on a plain connection to a room served with TLS: the PIN and host tokens are refused
    /// here, so a page sends neither and opens `secureRemote` (the https remote) for host controls.
    public var secretsNeedTLS: Bool?
    public var secureRemote: String?
    /// With TLS on: the room's certificate, so pages can tell guests what their browser's warning
    /// about a self-signed certificate means and what to compare (absent without TLS).
    public var certificate: CertificatePayload?
    public init(protocolVersion: Int = ProtocolVersion.current, clientId: UInt64, role: ClientRole, room: String,
                song: SongPayload?, library: [SongSummary]? = nil, state: StatePayload, results: [LineScorePayload]) {
        self.protocolVersion = protocolVersion
        self.clientId = clientId
        self.role = role
        self.room = room
        self.song = song
        self.library = library
        self.state = state
        self.results = results
    }
}

/// The current line of one part changed, or the current syllable within it.
public struct LinePayloadEvent: Codable, Sendable, Equatable {
    public var part: Int
    /// Current line index, or nil between lines (then `next` is the coming one).
    public var line: Int?
    public var next: Int?
    /// Current syllable within `line`, nil before its first syllable.
    public var syllable: Int?
    /// Media time of this update; clients interpolate progress from `state`.
    public var position: Double
    /// 0…1 through the line and through the syllable at `position`.
    public var lineProgress: Double
    public var syllableProgress: Double
    public init(part: Int, line: Int?, next: Int?, syllable: Int?, position: Double, lineProgress: Double, syllableProgress: Double) {
        self.part = part
        self.line = line
        self.next = next
        self.syllable = syllable
        self.position = position
        self.lineProgress = lineProgress
        self.syllableProgress = syllableProgress
    }
}

public struct PitchPayload: Codable, Sendable, Equatable {
    public var singer: Int
    /// Media seconds the frame belongs to (mic delay already removed).
    public var time: Double
    /// Detected frequency; 0 when unvoiced.
    public var hz: Double
    /// Fractional MIDI note, nil when unvoiced.
    public var midi: Double?
    /// MIDI note the singer should sing now (key shift applied), nil outside notes.
    public var target: Int?
    public var hit: Bool
    public init(singer: Int, time: Double, hz: Double, midi: Double?, target: Int?, hit: Bool) {
        self.singer = singer
        self.time = time
        self.hz = hz
        self.midi = midi
        self.target = target
        self.hit = hit
    }
}

public struct LineScorePayload: Codable, Sendable, Equatable {
    public var singer: Int
    public var part: Int
    public var line: Int
    /// Points earned on this line and the most it could give.
    public var score: Double
    public var maxScore: Double
    /// `perfect`, `great`, `good`, `ok`, `poor` (UltraStar-style rating); `none` for a line with
    /// nothing to judge (freestyle only, `maxScore` 0).
    public var rating: String
    /// The song the line belongs to (a result can reach the room after the next song was chosen).
    public var songId: String?
    /// `score` split for the score screen: points from normal and rap notes, from golden notes,
    /// and the line bonus (they add up to `score`); absent from older servers.
    public var notes: Double?
    public var golden: Double?
    public var bonus: Double?
    public init(singer: Int, part: Int, line: Int, score: Double, maxScore: Double, rating: String, songId: String? = nil,
                notes: Double? = nil, golden: Double? = nil, bonus: Double? = nil) {
        self.singer = singer
        self.part = part
        self.line = line
        self.score = score
        self.maxScore = maxScore
        self.rating = rating
        self.songId = songId
        self.notes = notes
        self.golden = golden
        self.bonus = bonus
    }
}

public struct TotalPayload: Codable, Sendable, Equatable {
    public var singer: Int
    public var name: String
    /// Running total, 0…10 000 as in UltraStar.
    public var score: Double
    /// Set on the last total of a song.
    public var final: Bool
    /// The song the total belongs to (see `LineScorePayload.songId`).
    public var songId: String?
    /// The difficulty this run is judged on (the seat's own, else the room's); nil when unknown.
    public var difficulty: String?
    public init(singer: Int, name: String, score: Double, final: Bool, songId: String? = nil, difficulty: String? = nil) {
        self.singer = singer
        self.name = name
        self.score = score
        self.final = final
        self.songId = songId
        self.difficulty = difficulty
    }
}

public struct QueuePayload: Codable, Sendable, Equatable {
    public var queue: [QueueItemPayload]
    public init(queue: [QueueItemPayload]) { self.queue = queue }
}

public struct DevicePayload: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case lost, back }
    /// `playback`, `mic0`, `mic1`, …
    public var device: String
    public var status: Status
    public var message: String
    public init(device: String, status: Status, message: String) {
        self.device = device
        self.status = status
        self.message = message
    }
}

public struct ErrorPayload: Codable, Sendable, Equatable {
    /// Stable machine-readable code (see docs/protocol.md).
    public var code: String
    public var message: String
    /// The command type and `id` that caused it, when known.
    public var command: String?
    public var id: Int?
    public init(code: String, message: String, command: String? = nil, id: Int? = nil) {
        self.code = code
        self.message = message
        self.command = command
        self.id = id
    }
}


/// One leaderboard row (from the score store).
public struct LeaderboardEntryPayload: Codable, Sendable, Equatable {
    public var songId: String
    /// The title stored with the run: pages show it without knowing the library.
    public var songTitle: String?
    public var singer: String
    public var score: Double
    /// ISO 8601.
    public var date: String
    public init(songId: String, songTitle: String? = nil, singer: String, score: Double, date: String) {
        self.songId = songId
        self.songTitle = songTitle
        self.singer = singer
        self.score = score
        self.date = date
    }
}

/// One stored run for the results page's history.
public struct RunPayload: Codable, Sendable, Equatable {
    public var songId: String
    public var songTitle: String
    public var singer: String
    public var part: Int
    public var total: Double
    /// `complete`, `interrupted` (a microphone was lost) or `in-progress` (never finished: a
    /// practice run started by a seek, or a song left before its end).
    public var status: String
    /// Scoring mode (`ultrastar`, `practice`), difficulty, key shift and tempo of the run.
    public var mode: String
    public var difficulty: String
    public var key: Int
    public var tempo: Double
    /// ISO 8601.
    public var startedAt: String
    public var finishedAt: String?
    public init(songId: String, songTitle: String, singer: String, part: Int, total: Double, status: String, mode: String,
                difficulty: String, key: Int, tempo: Double, startedAt: String, finishedAt: String?) {
        self.songId = songId
        self.songTitle = songTitle
        self.singer = singer
        self.part = part
        self.total = total
        self.status = status
        self.mode = mode
        self.difficulty = difficulty
        self.key = key
        self.tempo = tempo
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }
}

public struct ResultsPayload: Codable, Sendable, Equatable {
    public var songId: String?
    public var lines: [LineScorePayload]
    public var totals: [TotalPayload]
    public var leaderboard: [LeaderboardEntryPayload]
    /// Recent stored runs of every song, newest first (absent when the room keeps no store).
    public var runs: [RunPayload]?
    /// Why the stored leaderboard and runs could not be read (the score database failed): the
    /// lists are then empty because they are unknown, not because nothing was sung.
    public var storedUnreadable: String?
    /// True on the broadcast when the song ended (its final results); absent on an answer to a
    /// `results` command. Pages keep showing the song just sung until another starts playing.
    public var ended: Bool?
    public init(songId: String?, lines: [LineScorePayload], totals: [TotalPayload], leaderboard: [LeaderboardEntryPayload]) {
        self.songId = songId
        self.lines = lines
        self.totals = totals
        self.leaderboard = leaderboard
    }
}

public struct SongChangePayload: Codable, Sendable, Equatable {
    public var song: SongPayload?
    public init(song: SongPayload?) { self.song = song }
}

public struct HostsSignedOutPayload: Codable, Sendable, Equatable {
    /// Other host devices signed out: sessions ended or open host pages made guests, whichever is more.
    public var count: Int
    public init(count: Int) { self.count = count }
}

public struct CertificatePayload: Codable, Sendable, Equatable {
    /// SHA-256 fingerprint, "AB:CD:…" as browsers show it.
    public var fingerprint: String
    /// True for the room's own certificate (browsers warn once per device); false for one from a CA.
    public var selfSigned: Bool
    public init(fingerprint: String, selfSigned: Bool) {
        self.fingerprint = fingerprint
        self.selfSigned = selfSigned
    }
}
