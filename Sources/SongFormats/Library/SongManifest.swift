import Foundation

/// `song.json` in a song folder, for lyric formats that cannot name their audio (LRC,
/// WebVTT, JSON cues). Every field is optional; file names are relative to the folder.
///
///     {"lyrics": "song.lrc", "audio": "backing.ogg", "vocals": "vocals.ogg",
///      "cover": "cover.png", "title": "…", "artist": "…"}
public struct SongManifest: Codable, Sendable, Equatable {
    public var lyrics: String?
    public var audio: String?
    public var vocals: String?
    public var cover: String?
    public var title: String?
    public var artist: String?

    public init(lyrics: String? = nil, audio: String? = nil, vocals: String? = nil, cover: String? = nil,
                title: String? = nil, artist: String? = nil) {
        self.lyrics = lyrics
        self.audio = audio
        self.vocals = vocals
        self.cover = cover
        self.title = title
        self.artist = artist
    }

    public static let fileName = "song.json"
}
