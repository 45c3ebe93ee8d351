/// The verdict on one detection beat.
public struct BeatJudgement: Sendable, Equatable {
    /// 0…1 share of the beat's points earned.
    public var credit: Double
    /// Median folded deviation (semitones) of the voiced samples, when the beat was pitched and voiced.
    public var deviation: Double?

    public init(credit: Double, deviation: Double?) {
        self.credit = credit
        self.deviation = deviation
    }

    public static let miss = BeatJudgement(credit: 0, deviation: nil)
}
