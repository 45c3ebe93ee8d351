import Foundation
import KaraokeRoom
import RoomProtocol
import Synchronization

/// A `RoomLiveSession` with scripted microphones: singer i < `inputLatencies.count` has one,
/// reporting that latency (settable, as the sound server's readings move). Calibration finishes
/// on another thread after `calibrationTime`, with `calibrationOutcome`: a delay it then uses,
/// or an error it reports. Mic delays resolve as `LiveRoomSession` resolves them.
final class FakeLiveSession: RoomLiveSession {
    struct Refused: Error, CustomStringConvertible { let description: String }

    private struct Books {
        var inputLatencies: [Double?]
        var calibrated: [Int: Double] = [:]
        var calibrationOutcome: Result<Double, Refused> = .success(0.031)
        var calibrations: [Int] = []
        var loadedSeatNames: [[String]] = []
    }

    let defaultDelay: Double
    let calibrationTime: Double
    private let books: Mutex<Books>

    init(inputLatencies: [Double?], defaultDelay: Double = 0.14, calibrationTime: Double = 0.05) {
        books = Mutex(Books(inputLatencies: inputLatencies))
        self.defaultDelay = defaultDelay
        self.calibrationTime = calibrationTime
    }

    func setInputLatency(_ seconds: Double?, singer: Int) { books.withLock { $0.inputLatencies[singer] = seconds } }
    func setCalibrationOutcome(_ outcome: Result<Double, Refused>) { books.withLock { $0.calibrationOutcome = outcome } }
    /// Singers whose calibration was started, in order.
    var calibrations: [Int] { books.withLock { $0.calibrations } }

    /// The seats' names each loaded song's runs start with (what `LiveRoomSession` stores them as).
    var loadedSeatNames: [[String]] { books.withLock { $0.loadedSeatNames } }

    func roomLoaded(_ entry: CatalogEntry, settings: RoomSettings) {
        books.withLock { $0.loadedSeatNames.append(settings.singers.map(\.name)) }
    }
    func roomSettingsChanged(_ settings: RoomSettings) {}
    func roomSeeked(to mediaSeconds: Double) {}
    func roomStopped() {}

    func calibrate(singer: Int, done: @escaping @Sendable ((any Error)?) -> Void) throws {
        let outcome = try books.withLock { books in
            guard books.inputLatencies.indices.contains(singer) else { throw Refused(description: "no microphone for singer \(singer + 1)") }
            books.calibrations.append(singer)
            return books.calibrationOutcome
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + calibrationTime) { [self] in
            switch outcome {
            case .success(let delay):
                books.withLock { $0.calibrated[singer] = delay }
                done(nil)
            case .failure(let error):
                done(error)
            }
        }
    }

    func microphone(singer: Int, seat: SingerPayload?) -> MicrophoneReport? {
        books.withLock { books in
            guard books.inputLatencies.indices.contains(singer) else { return nil }
            return MicrophoneReport(
                inputLatency: books.inputLatencies[singer],
                micDelay: .resolve(roomSettingMs: seat?.micDelayMs, calibrated: books.calibrated[singer], defaultDelay: defaultDelay))
        }
    }
}
