import GRDB

extension SQLiteScoreStore {
    /// Every stored run, newest first, whatever its status (complete, interrupted, or a practice
    /// run that was never finished), for the results page's history.
    nonisolated public func recentRuns(songId: String? = nil, limit: Int = 40) throws(ScoreStoreError) -> [PerformanceRecord] {
        try read { db in
            var request = PerformanceRecord.all()
            if let songId { request = request.filter(Column("songId") == songId) }
            return try request.order(Column("startedAt").desc, Column("id").desc).limit(limit).fetchAll(db)
        }
    }
}
