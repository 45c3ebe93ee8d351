/// Decides whether a frame is sung (voiced) from its periodicity, level and energy balance.
///
/// Hysteresis on clarity keeps a held note from flickering when its periodicity dips
/// (vibrato, consonant transitions) without letting noise start a note.
struct VoicingGate {
    let onsetClarity: Float
    let holdClarity: Float
    let minimumLevelDb: Float
    let centreEnergyRatio: Float
    private(set) var wasVoiced = false

    init(configuration: PitchDetectorConfiguration) {
        onsetClarity = configuration.voicingOnsetClarity
        holdClarity = configuration.voicingHoldClarity
        minimumLevelDb = configuration.minimumLevelDb
        centreEnergyRatio = configuration.centreEnergyRatio
    }

    /// - Parameters:
    ///   - clarity: periodicity of the chosen period, 0…1.
    ///   - levelDb: the window's level.
    ///   - centreShare: mean power of the window's central hop divided by the window's.
    ///   - holdClarity: replaces the configured hold threshold for this frame (a run continuing at
    ///     the same period).
    ///   - previouslyVoiced: whether the run was voiced before this frame (default: the last
    ///     decision; a second reading of the same frame passes the state from before the first).
    mutating func decide(
        clarity: Float, levelDb: Float, centreShare: Float, holdClarity: Float? = nil, previouslyVoiced: Bool? = nil
    ) -> Bool {
        let needed = (previouslyVoiced ?? wasVoiced) ? (holdClarity ?? self.holdClarity) : onsetClarity
        let voiced = clarity >= needed && levelDb >= minimumLevelDb && centreShare >= centreEnergyRatio
        wasVoiced = voiced
        return voiced
    }

    mutating func reset() { wasVoiced = false }
}

extension VoicingGate {
    /// Mean power of `count` samples, and the mean power of the `hop` samples around index `centre`
    /// as a share of it (the `centreShare` of `decide`; 0 for a silent window). Unweighted.
    static func energyBalance(
        _ samples: UnsafePointer<Float>, count: Int, centre: Int, hop: Int
    ) -> (meanPower: Float, centreShare: Float) {
        var whole: Float = 0, central: Float = 0
        let centreStart = centre - hop / 2
        for i in 0..<count { whole += samples[i] * samples[i] }
        for i in centreStart..<(centreStart + hop) { central += samples[i] * samples[i] }
        let meanPower = whole / Float(count)
        return (meanPower, whole > 0 ? (central / Float(hop)) / meanPower : 0)
    }
}
