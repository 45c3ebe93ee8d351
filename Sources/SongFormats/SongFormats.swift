// SongFormats: filled in by its issue.
