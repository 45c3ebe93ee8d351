/// How strictly a song file is held to its format.
public enum SongReadingMode: Sendable, Equatable {
    /// As UltraStar Deluxe and common LRC players do: a rule the file breaks is worked around
    /// with a warning that names the line and what was assumed. Only a file that leaves no
    /// usable timeline (no timed lines, no `#BPM`, no notes) is rejected.
    case lenient
    /// For song authors (`karaoke show --strict`): every broken rule is an error.
    case strict
}
