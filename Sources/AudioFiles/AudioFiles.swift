// AudioFiles: filled in by its issue.
