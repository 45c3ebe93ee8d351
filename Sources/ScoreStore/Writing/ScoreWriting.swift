import Foundation
import Scoring

/// The writes a live performance needs. A `ScoreStore` is the real one; `ScoreWriteQueue` drives
/// any of them, so a test can put a store behind a wrapper whose writes fail, then recover.
/// `key` names the performance for good: a begin retried with the same key returns the same id.
public protocol ScoreWriting: Sendable {
    func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64
    func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError)
    func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError)
}

/// The store's own queue refers to it weakly (the store owns the queue).
struct WeakScoreWriter: ScoreWriting {
    weak var store: (any ScoreStore)?

    private func target() throws(ScoreStoreError) -> any ScoreStore {
        guard let store else { throw .database(path: "", detail: "the score store was closed") }
        return store
    }

    func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 {
        try await target().begin(start, key: key, at: date)
    }

    func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {
        try await target().record(line, performance: id, micLost: micLost)
    }

    func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) {
        try await target().finish(id, total: total, status: status, at: date)
    }
}
