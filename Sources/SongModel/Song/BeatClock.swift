/// Converts UltraStar beats to media seconds: `t = gap + beat · 60 / (BPM · 4)`.
///
/// One beat here is a quarter of a `#BPM` beat, which is also the unit the
/// scoring engine judges ("detection beat").
public struct BeatClock: Sendable, Equatable {
    /// The `#BPM` value of the file.
    public var bpm: Double
    /// `#GAP` in seconds: media time of beat 0.
    public var gapSeconds: Double

    public init(bpm: Double, gapSeconds: Double) {
        self.bpm = bpm
        self.gapSeconds = gapSeconds
    }

    public var secondsPerBeat: Double { 60 / (bpm * 4) }

    public func seconds(atBeat beat: Double) -> Double { gapSeconds + beat * secondsPerBeat }
    public func seconds(atBeat beat: Int) -> Double { seconds(atBeat: Double(beat)) }
    public func beat(atSeconds t: Double) -> Double { (t - gapSeconds) / secondsPerBeat }
}
