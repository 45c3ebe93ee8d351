/// Which companion line the lyric views show under a line that has one (TTML `x-translation`,
/// `x-roman`): none, the translation, or the romanisation. Background vocals are always shown.
public enum LyricCompanionDisplay: String, Codable, Sendable, CaseIterable {
    case off, translation, romanization
}
