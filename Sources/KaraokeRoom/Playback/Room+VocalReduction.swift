/// The host's vocal-reduction switch: applied to the player only while the loaded song's
/// backing is a full mix (see `BackingMix`).
extension Room {
    var vocalReductionApplies: Bool {
        guard settings.vocalReduction, let current else { return false }
        return BackingMix.isFullMix(backingTrackPath: current.entry.backingTrackPath, song: current.song)
    }

    func applyVocalReduction() {
        player.setVocalReduction(vocalReductionApplies)
    }
}
