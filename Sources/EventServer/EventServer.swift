// EventServer: filled in by its issue.
