// Benchmarks/store/StoreBench: one room's writes to the venue's PostgreSQL, as the room makes
// them (ScoreWriteQueue with its disk spool, PostgresScoreStore), timed from the moment a line is
// queued to the moment PostgreSQL acknowledged it. `Benchmarks/store/venue_load.py` starts eight
// of these at once against one PostgreSQL and adds them up; `--venue N` instead times the venue
// page's read (VenueSnapshot) with N rooms announced.
//
//   store-bench --url postgres://… --room NAME [--runs 4] [--lines 17] [--interval-ms 50] [--spool DIR]
//   store-bench --url postgres://… --venue 30 [--reads 40]
import Foundation
import KaraokeRoom
import Scoring
import ScoreStore
import Synchronization

struct Arguments {
    var url = ""
    var room = "bench"
    var runs = 4
    var lines = 17
    var intervalMs = 50
    var spool: String?
    var venueRooms: Int?
    var reads = 40

    init(_ arguments: [String]) {
        var it = arguments.dropFirst().makeIterator()
        while let name = it.next() {
            let value = it.next() ?? ""
            switch name {
            case "--url": url = value
            case "--room": room = value
            case "--runs": runs = Int(value) ?? runs
            case "--lines": lines = Int(value) ?? lines
            case "--interval-ms": intervalMs = Int(value) ?? intervalMs
            case "--spool": spool = value
            case "--venue": venueRooms = Int(value)
            case "--reads": reads = Int(value) ?? reads
            default: fatalError("unknown option \(name)")
            }
        }
    }
}

/// Stamps each line's acknowledgement; `queued` holds when each was handed to the queue.
final class TimedWriter: ScoreWriting {
    let store: any ScoreStore
    let queued = Mutex<[String: ContinuousClock.Instant]>([:])
    let latencies = Mutex<[Double]>([])

    init(store: any ScoreStore) { self.store = store }

    func begin(_ start: PerformanceStart, key: String, at date: Date) async throws(ScoreStoreError) -> Int64 {
        try await store.begin(start, key: key, at: date)
    }

    func record(_ line: LineResult, performance id: Int64, micLost: Bool) async throws(ScoreStoreError) {
        try await store.record(line, performance: id, micLost: micLost)
        let now = ContinuousClock.now
        let key = "\(line.text)"
        if let then = queued.withLock({ $0.removeValue(forKey: key) }) {
            let d = now - then
            latencies.withLock { $0.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15) }
        }
    }

    func finish(_ id: Int64, total: Int, status: PerformanceRecord.Status, at date: Date) async throws(ScoreStoreError) {
        try await store.finish(id, total: total, status: status, at: date)
    }
}

func line(_ index: Int, run: Int) -> LineResult {
    let perfection = Double((index * 37 + run * 11) % 100) / 100
    return LineResult(lineIndex: index, text: "run \(run) line \(index)", start: Double(index) * 5, end: Double(index) * 5 + 4,
                      score: 900 * perfection, maxScore: 900, bonus: 100 * perfection, perfection: perfection,
                      rating: LineRating(perfection: perfection),
                      notes: (0..<8).map { _ in NoteResult(text: "la", kind: .normal, targetMidi: 60, beats: 4, creditedBeats: 4 * perfection, deviationCents: 20) })
}

func quantile(_ sorted: [Double], _ q: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))]
}

func writeRoom(_ a: Arguments) async throws -> [String: Any] {
    let store = PostgresScoreStore(url: try PostgresStoreURL(a.url), room: a.room)
    if let problem = await store.checkConnection() { throw problem }
    let timed = TimedWriter(store: store)
    let queue = ScoreWriteQueue(path: store.location, writer: timed)
    if let spool = a.spool { try queue.attachSpool(directory: spool) }
    let started = ContinuousClock.now
    for r in 0..<a.runs {
        let run = queue.begin(PerformanceStart(songId: "bench-song-\(r % 3)", songTitle: "Bench \(r % 3)", singer: "\(a.room) singer \(r)",
                                               part: 0, configuration: ScoringConfiguration(), basis: .notes))
        var total = 0.0
        for i in 0..<a.lines {
            let l = line(i, run: r)
            total += l.score + l.bonus
            timed.queued.withLock { $0[l.text] = .now }
            queue.record(l, run: run)
            try await Task.sleep(for: .milliseconds(a.intervalMs))
        }
        queue.finish(run, total: Int(total.rounded()))
    }
    let drained = await queue.flush(timeout: 120)
    await queue.close(timeout: 1)
    let elapsed = ContinuousClock.now - started
    await store.close()
    let sorted = timed.latencies.withLock { $0 }.sorted()
    return ["room": a.room, "drained": drained, "lines_acknowledged": sorted.count, "lines_queued": a.runs * a.lines,
            "latency_ms_median": quantile(sorted, 0.5), "latency_ms_p99": quantile(sorted, 0.99), "latency_ms_max": sorted.last ?? .nan,
            "latencies_ms": sorted, "seconds": Double(elapsed.components.seconds)]
}

func readVenue(_ a: Arguments, rooms: Int) async throws -> [String: Any] {
    let store = PostgresScoreStore(url: try PostgresStoreURL(a.url), room: "venue-bench")
    if let problem = await store.checkConnection() { throw problem }
    for n in 0..<rooms {
        try await store.announce(RoomPresence(name: "Room \(n)", joinURL: "http://10.0.0.\(n + 2):8080/remote",
                                              nowPlaying: n % 2 == 0 ? "Song \(n)" : nil, busy: n % 2 == 0, heartbeatAt: Date()))
    }
    var times: [Double] = []
    var listed = 0
    for _ in 0..<a.reads {
        let t0 = ContinuousClock.now
        let snapshot = try await VenueSnapshot.read(from: store, servedBy: "Room 0")
        let d = ContinuousClock.now - t0
        times.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
        listed = snapshot.rooms.count
    }
    await store.close()
    times.sort()
    return ["rooms_announced": rooms, "rooms_listed": listed, "reads": a.reads,
            "read_ms_median": quantile(times, 0.5), "read_ms_p99": quantile(times, 0.99), "read_ms_max": times.last ?? .nan]
}

let arguments = Arguments(CommandLine.arguments)
do {
    let report = if let rooms = arguments.venueRooms { try await readVenue(arguments, rooms: rooms) } else { try await writeRoom(arguments) }
    let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("store-bench: \(error)\n".utf8))
    exit(1)
}
