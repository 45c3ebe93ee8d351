// KaraokeRoom: filled in by its issue.
