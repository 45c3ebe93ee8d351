/// Decides whether a frame is sung (voiced) from its periodicity, level and energy balance.
///
/// Hysteresis on clarity keeps a held note from flickering when its periodicity dips
/// (vibrato, consonant transitions) without letting noise start a note. Hysteresis on level
/// keeps a note the singer lets fade (a phrase's last vowel) voiced under the level a note needs
/// to start, as long as it fades slowly: a room's reverberation after the voice stops falls
/// faster than a sung fade.
struct VoicingGate {
    let onsetClarity: Float
    let holdClarity: Float
    let minimumLevelDb: Float
    let holdLevelDb: Float
    let holdFallDbPerFrame: Float
    let centreEnergyRatio: Float
    private(set) var wasVoiced = false
    /// The levels of the last three frames, oldest first (`endFrame`; a tuple: no allocation).
    private var recentLevels: (Float, Float, Float) = (-120, -120, -120)
    static let fallFrames = 3

    init(configuration: PitchDetectorConfiguration) {
        onsetClarity = configuration.voicingOnsetClarity
        holdClarity = configuration.voicingHoldClarity
        minimumLevelDb = configuration.minimumLevelDb
        holdLevelDb = min(configuration.minimumLevelDb, configuration.holdLevelDb)
        holdFallDbPerFrame = configuration.holdFallDbPerFrame
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
    ///   - continuing: the frame carries on the previous voiced frame's period; it then needs only
    ///     `holdLevelDb` while its level has fallen by at most `holdFallDbPerFrame` a frame over
    ///     the last `fallFrames` frames.
    mutating func decide(
        clarity: Float, levelDb: Float, centreShare: Float, holdClarity: Float? = nil, previouslyVoiced: Bool? = nil,
        continuing: Bool = false
    ) -> Bool {
        let needed = (previouslyVoiced ?? wasVoiced) ? (holdClarity ?? self.holdClarity) : onsetClarity
        let fadingSlowly = levelDb - recentLevels.0 > -holdFallDbPerFrame * Float(Self.fallFrames)
        let level = continuing && fadingSlowly ? holdLevelDb : minimumLevelDb
        let voiced = clarity >= needed && levelDb >= level && centreShare >= centreEnergyRatio
        wasVoiced = voiced
        return voiced
    }

    /// Takes the level of a frame once it is decided (however many readings it had).
    mutating func endFrame(levelDb: Float) {
        recentLevels = (recentLevels.1, recentLevels.2, levelDb)
    }

    mutating func reset() {
        wasVoiced = false
        recentLevels = (-120, -120, -120)
    }
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
