/// What a client asks of the song library: one page of the songs matching a search and filters.
/// On the wire: `{"type":"library","query":"abba water","artist":…,"letter":"A","duet":true,
/// "hasNotes":true,"language":"English","sort":"relevance|title|artist|year","offset":0,"limit":50}`,
/// every field optional.
public struct LibraryQuery: Sendable, Equatable {
    public enum Sort: String, Sendable, Equatable, CaseIterable {
        case relevance, title, artist, year
    }

    /// Words that must all appear (case and accents folded) in the title or artist.
    public var text: String
    /// Only this artist's songs (folded comparison).
    public var artist: String?
    /// Only artists starting with this letter ("#" = not a letter).
    public var letter: String?
    public var duet: Bool?
    public var hasNotes: Bool?
    public var language: String?
    public var sort: Sort
    public var offset: Int
    public var limit: Int

    public static let maxLimit = 200

    public init(text: String = "", artist: String? = nil, letter: String? = nil, duet: Bool? = nil, hasNotes: Bool? = nil,
                language: String? = nil, sort: Sort = .relevance, offset: Int = 0, limit: Int = 50) {
        self.text = text
        self.artist = artist
        self.letter = letter
        self.duet = duet
        self.hasNotes = hasNotes
        self.language = language
        self.sort = sort
        self.offset = offset
        self.limit = limit
    }
}

/// One page of songs (answer to `library`).
public struct LibraryPayload: Codable, Sendable, Equatable {
    public var songs: [SongSummary]
    /// Songs matching the query (all pages); `librarySize` = songs in the whole library.
    public var total: Int?
    public var librarySize: Int?
    public var offset: Int?
    /// The search text this page answers, and the command's `id` when it had one.
    public var query: String?
    public var id: Int?
    /// Server time spent searching, in milliseconds.
    public var elapsedMs: Double?
    /// While the library is first being read: songs read so far (this page is from the part
    /// read, usually empty); nil once it is read.
    public var indexing: Int?
    public init(songs: [SongSummary], total: Int? = nil, librarySize: Int? = nil, offset: Int? = nil, query: String? = nil,
                id: Int? = nil, elapsedMs: Double? = nil) {
        self.songs = songs
        self.total = total
        self.librarySize = librarySize
        self.offset = offset
        self.query = query
        self.id = id
        self.elapsedMs = elapsedMs
    }
}

/// One artist with how many songs of theirs the library holds.
public struct ArtistPayload: Codable, Sendable, Equatable {
    public var name: String
    public var songs: Int
    public init(name: String, songs: Int) {
        self.name = name
        self.songs = songs
    }
}

/// The artists (answer to `artists`), optionally those starting with one letter.
public struct ArtistsPayload: Codable, Sendable, Equatable {
    public var letter: String?
    public var artists: [ArtistPayload]
    /// Letters that have at least one artist ("#" for the rest), for the letter bar.
    public var letters: [String]
    public init(letter: String?, artists: [ArtistPayload], letters: [String]) {
        self.letter = letter
        self.artists = artists
        self.letters = letters
    }
}

/// The answer to one `queueAdd`: where the request stands. `folded` = the same singer had
/// already asked for this song; nothing was added.
public struct QueuedPayload: Codable, Sendable, Equatable {
    public var item: QueueItemPayload
    /// 1-based place in the queue.
    public var position: Int
    public var folded: Bool
    public var id: Int?
    public init(item: QueueItemPayload, position: Int, folded: Bool, id: Int?) {
        self.item = item
        self.position = position
        self.folded = folded
        self.id = id
    }
}
