import Scoring

/// What the store needs to know when a performance begins.
public struct PerformanceStart: Sendable, Equatable, Codable {
    public var songId: String
    public var songTitle: String
    public var singer: String
    public var part: Int
    public var configuration: ScoringConfiguration
    public var basis: ScoreBasis

    public init(songId: String, songTitle: String, singer: String, part: Int, configuration: ScoringConfiguration, basis: ScoreBasis) {
        self.songId = songId
        self.songTitle = songTitle
        self.singer = singer
        self.part = part
        self.configuration = configuration
        self.basis = basis
    }
}
