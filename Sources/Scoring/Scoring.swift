// Scoring: filled in by its issue.
