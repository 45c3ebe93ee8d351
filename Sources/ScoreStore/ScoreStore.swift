// ScoreStore: filled in by its issue.
