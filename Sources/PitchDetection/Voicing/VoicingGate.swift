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
