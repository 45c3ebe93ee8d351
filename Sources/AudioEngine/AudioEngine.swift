// AudioEngine: filled in by its issue.
