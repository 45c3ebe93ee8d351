extension MIDIFile {
    /// When the last event sounds (or ends), through the tempo map: how long the synthesised
    /// backing plays before its release tail. Nil for a file without events.
    var lastEventSeconds: Double? {
        guard let last = tracks.compactMap({ $0.last?.tick }).max() else { return nil }
        return MIDITempoMap(file: self).seconds(atTick: last)
    }
}
