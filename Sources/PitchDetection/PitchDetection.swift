// PitchDetection: filled in by its issue.
