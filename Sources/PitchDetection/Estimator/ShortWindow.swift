/// A second, shorter analysis window centred on the same instant as the main one, for the frames
/// the main window leaves unvoiced; and placed over the main window's newest samples, for a voiced
/// frame that does not continue its period (`PitchDetector`'s `newestReading`).
///
/// The main window is 3 periods of the lowest voice (46 ms at 65 Hz). At a note's onset or end,
/// and where a quiet consonant meets a loud vowel, it spans the silence or the neighbouring sound
/// as well as the note, so its periodicity or its centre's share of the power falls under the
/// voicing thresholds although the singer is already (or still) singing at the frame's centre.
/// A voice above `minFrequency` needs only 3 of its own periods (21 ms at 140 Hz): this window
/// sees the note without most of what lies beyond it.
///
/// Only a period the short window can carry (≥ `minFrequency`) is returned; lower voices keep the
/// main window's decision.
final class ShortWindow {
    let difference: DifferenceFunction
    let minLag: Int
    let maxLag: Int
    let halfLength: Int
    /// The main window's peak-picking parameters (`PitchDetectorConfiguration`).
    private let threshold: Float
    private let lobeMargin: Float
    private let subharmonicTolerance: Float

    /// - Parameters:
    ///   - rate: analysis rate, Hz.
    ///   - minFrequency: the lowest fundamental this window reads; its length is
    ///     `configuration.windowPeriods` periods of it.
    ///   - minLag: the shortest period searched (the main window's).
    init(rate: Double, minFrequency: Double, minLag: Int, configuration: PitchDetectorConfiguration) {
        maxLag = Int((rate / minFrequency).rounded(.up)) + 1
        var length = Int((configuration.windowPeriods * rate / minFrequency).rounded())
        if length % 2 == 0 { length += 1 }
        length = max(length, 2 * maxLag + 3, maxLag + 3 + BandLimitedPeak.halfWidth)
        halfLength = (length - 1) / 2
        self.minLag = minLag
        threshold = configuration.yinThreshold
        lobeMargin = configuration.formantLobeMargin
        subharmonicTolerance = configuration.subharmonicTolerance
        difference = DifferenceFunction(length: length, maxLag: maxLag)
    }

    /// The period of the short window centred `centreOffset` samples after the start of the main
    /// window, and the centre hop's share of its mean power; nil when the window is silent.
    /// - Parameters:
    ///   - raw: the main window's raw samples (level, energy balance).
    ///   - cut: the same after the low cut (period).
    ///   - centreOffset: the main window's half length (both windows share their centre).
    ///   - hop: samples per frame (the centre hop).
    func estimate(
        raw: UnsafePointer<Float>, cut: UnsafePointer<Float>, centreOffset: Int, hop: Int
    ) -> (candidate: PeriodCandidate, centreShare: Float)? {
        let start = centreOffset - halfLength
        let balance = VoicingGate.energyBalance(raw + start, count: difference.length, centre: halfLength, hop: hop)
        guard balance.meanPower > 0 else { return nil }
        _ = difference.load(cut + start)
        guard difference.evaluate() else { return nil }
        var candidate = PeakPicking.yinPeriod(
            cmnd: difference.cumulativeMeanNormalised, normalised: difference.normalised,
            minLag: minLag, maxLag: maxLag, threshold: threshold, lobeMargin: lobeMargin)
        candidate = PeakPicking.preferShorterPeriod(
            candidate, normalised: difference.normalised, minLag: minLag, maxLag: maxLag,
            tolerance: subharmonicTolerance)
        // A period at the search's end is a lower voice this window cannot hold three times.
        guard candidate.lag <= Float(maxLag - 1) else { return nil }
        return (candidate, balance.centreShare)
    }
}
