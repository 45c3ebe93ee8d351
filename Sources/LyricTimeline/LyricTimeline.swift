// LyricTimeline: filled in by its issue.
