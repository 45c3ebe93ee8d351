/// Converts between playback time (seconds of wall clock since the song started playing
/// at its current tempo) and media time (seconds of the backing track, the time lyrics and
/// notes are written in).
///
/// `media = playback · tempo + offset`. A tempo of 1.25 plays the song 25 % faster, so
/// more media time passes per second; `offset` shifts the lyrics: +0.2 shows every line
/// 200 ms earlier (use it when the lyric file is late against the audio).
public struct TimeMapping: Sendable, Equatable {
    public var tempo: Double
    public var offset: Double

    public init(tempo: Double = 1, offset: Double = 0) {
        precondition(tempo > 0 && tempo.isFinite, "tempo must be a positive number")
        self.tempo = tempo
        self.offset = offset
    }

    public static let identity = TimeMapping()

    public func mediaTime(fromPlayback p: Double) -> Double { p * tempo + offset }
    public func playbackTime(fromMedia m: Double) -> Double { (m - offset) / tempo }
}
