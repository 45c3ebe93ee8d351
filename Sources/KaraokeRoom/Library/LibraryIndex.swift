import RoomProtocol

/// The room's song library in memory, searchable: the same song shipped in several formats or
/// folders (same title and artist, case and accents folded) is one item listing its formats.
/// Search folds case and accents, needs every word in the title or artist (a word matches the
/// start of a word, or failing that anywhere), and ranks whole-word and title matches first.
struct LibraryIndex: Sendable {
    struct Item: Sendable {
        var song: IndexedSong
        /// Ids of the other versions, and every version's format.
        var versions: [String]
        var formats: [String]
        let titleWords: [[UInt8]]
        let artistWords: [[UInt8]]
        let joined: [UInt8]
        let titleBytes: [UInt8]
        let titleKey: String
        let artistKey: String
        let artistBytes: [UInt8]
        let languageKey: String?
        let letter: String
    }

    private(set) var items: [Item] = []
    private var byId: [String: IndexedSong] = [:]
    /// Every song indexed (versions not folded), for the log and `room.library`.
    private(set) var songs: [IndexedSong] = []
    /// Each item's place in title order and in artist order (ties by title), so sorting a
    /// page compares integers, not strings.
    private var titleRank: [Int] = []
    private var artistRank: [Int] = []

    init(_ songs: [IndexedSong] = []) {
        self.songs = songs
        var groups: [String: Int] = [:]
        for song in songs {
            let titleKey = song.foldedTitle ?? SearchText.fold(song.title)
            let artistKey = song.foldedArtist ?? SearchText.fold(song.artist)
            let key = titleKey + "\u{1}" + artistKey
            if song.error == nil, let index = groups[key] {
                items[index].versions.append(song.id)
                if let format = song.format, !items[index].formats.contains(format) { items[index].formats.append(format) }
                // Notes beat lyrics only: the UltraStar version is the one played.
                if song.hasNotes && !items[index].song.hasNotes {
                    items[index].versions.removeAll { $0 == song.id }
                    items[index].versions.append(items[index].song.id)
                    items[index].song = song
                }
                byId[song.id] = song
                continue
            }
            let titleBytes = Array(titleKey.utf8), artistBytes = Array(artistKey.utf8)
            let item = Item(song: song, versions: [], formats: song.format.map { [$0] } ?? [],
                            titleWords: SearchText.words(folded: titleBytes), artistWords: SearchText.words(folded: artistBytes),
                            joined: titleBytes + [0x20] + artistBytes, titleBytes: titleBytes, titleKey: titleKey,
                            artistKey: artistKey, artistBytes: artistBytes,
                            languageKey: song.language.map(SearchText.fold), letter: SearchText.letter(folded: artistBytes))
            if song.error == nil { groups[key] = items.count }
            byId[song.id] = song
            items.append(item)
        }
        // Byte order of the folded keys: fast, and the same for every client.
        titleRank = Self.ranks(items.indices.sorted { a, b in
            let x = items[a].titleBytes, y = items[b].titleBytes
            return x != y ? x.lexicographicallyPrecedes(y) : items[a].song.id.utf8.lexicographicallyPrecedes(items[b].song.id.utf8)
        })
        let titleRanks = titleRank
        artistRank = Self.ranks(items.indices.sorted { a, b in
            let x = items[a].artistBytes, y = items[b].artistBytes
            return x != y ? x.lexicographicallyPrecedes(y) : titleRanks[a] < titleRanks[b]
        })
    }

    private static func ranks(_ order: [Int]) -> [Int] {
        var ranks = [Int](repeating: 0, count: order.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }

    var count: Int { items.count }

    func song(id: String) -> IndexedSong? { byId[id] }

    func summary(_ item: Item) -> SongSummary {
        var summary = item.song.summary
        summary.formats = item.formats.isEmpty ? nil : item.formats
        summary.versions = item.versions.isEmpty ? nil : item.versions
        return summary
    }

    /// One page of the matching songs, and how many match in all.
    func query(_ query: LibraryQuery) -> (total: Int, songs: [SongSummary]) {
        let words = SearchText.words(query.text)
        let artist = query.artist.map(SearchText.fold)
        let language = query.language.map(SearchText.fold)
        let letter = query.letter?.uppercased()
        var hits: [(index: Int, score: Int)] = []
        for (index, item) in items.enumerated() {
            if let artist, item.artistKey != artist { continue }
            if let letter, item.letter != letter { continue }
            if let duet = query.duet, item.song.duet != duet { continue }
            if let hasNotes = query.hasNotes, item.song.hasNotes != hasNotes { continue }
            if let language, item.languageKey != language { continue }
            guard let score = Self.score(item, words) else { continue }
            hits.append((index, score))
        }
        let sorted = hits.sorted { a, b in
            switch query.sort {
            case .relevance:
                if a.score != b.score { return a.score > b.score }
            case .artist:
                return artistRank[a.index] < artistRank[b.index]
            case .year:
                let x = items[a.index].song.year ?? Int.max, y = items[b.index].song.year ?? Int.max
                if x != y { return x < y }
            case .title: break
            }
            return titleRank[a.index] < titleRank[b.index]
        }
        let page = sorted.dropFirst(query.offset).prefix(query.limit).map { summary(items[$0.index]) }
        return (hits.count, Array(page))
    }

    /// Nil when a word is missing; else higher for whole words, word starts and title hits.
    static func score(_ item: Item, _ words: [[UInt8]]) -> Int? {
        var score = 0
        for word in words {
            var best = 0
            for title in item.titleWords {
                if title == word { best = max(best, 10) } else if SearchText.hasPrefix(title, word) { best = max(best, 6) }
            }
            for artist in item.artistWords {
                if artist == word { best = max(best, 10) } else if SearchText.hasPrefix(artist, word) { best = max(best, 5) }
            }
            if best == 0, SearchText.contains(item.joined, word) { best = 1 }
            if best == 0 { return nil }
            score += best
        }
        // Every word matched and nothing else in the title: the song asked for by name.
        if !words.isEmpty, item.titleWords.count <= words.count,
           item.titleWords.allSatisfy({ title in words.contains { $0 == title } }) { score += 5 }
        return score
    }

    /// Artists (with song counts), optionally those whose browse letter is `letter`.
    func artists(letter: String?) -> ArtistsPayload {
        var counts: [String: (name: String, songs: Int, letter: String)] = [:]
        for item in items where item.song.error == nil {
            let key = item.artistKey
            if let existing = counts[key] {
                counts[key] = (existing.name, existing.songs + 1, existing.letter)
            } else {
                counts[key] = (item.song.artist, 1, item.letter)
            }
        }
        let letters = Set(counts.values.map(\.letter)).sorted { ($0 == "#" ? "~" : $0) < ($1 == "#" ? "~" : $1) }
        let chosen = counts.filter { letter == nil || $0.value.letter == letter?.uppercased() }
            .sorted { $0.key < $1.key }
            .map { ArtistPayload(name: $0.value.name, songs: $0.value.songs) }
        return ArtistsPayload(letter: letter, artists: chosen, letters: letters)
    }
}
