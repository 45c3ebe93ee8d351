import AudioEngine
import AudioFiles
import Foundation
import Synchronization
import Testing

/// Preparing a backing track off the room's queue: a superseded load gives up while
/// resampling, and an unreadable file fails with an error naming it.
@Suite struct TrackSourceLoadingTests {
    /// Counts `isCancelled` calls and says yes from the `after`-th call on.
    final class Canceller: Sendable {
        private let calls = Atomic<Int>(0)
        let after: Int
        init(after: Int) { self.after = after }
        var count: Int { calls.load(ordering: .relaxed) }
        func isCancelled() -> Bool { calls.add(1, ordering: .relaxed).newValue >= after }
    }

    @Test func resamplingGivesUpWhenCancelledAndFinishesOtherwise() throws {
        // 3 s at 44.1 kHz: 144 000 output frames at 48 kHz, so the resampler asks many times.
        let path = try TestSignals.writeTemp(TestSignals.sine(440, seconds: 3, rate: 44_100), rate: 44_100, name: "cancel-44k.wav")
        let never = Canceller(after: .max)
        let track = try TrackSource.load(path: path, sampleRate: 48_000, isCancelled: never.isCancelled)
        #expect(abs(track.duration - 3) < 0.001)
        #expect(never.count > 5, "asked only \(never.count) times")

        let midway = Canceller(after: 3)
        #expect {
            _ = try TrackSource.load(path: path, sampleRate: 48_000, isCancelled: midway.isCancelled)
        } throws: { error in
            (error as? PlaybackError)?.path == path && "\(error)".contains("cancelled")
        }
        #expect(midway.count == 3, "kept resampling after it was cancelled")
    }

    @Test func anUnreadableFileFailsNamingIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-corrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("backing.ogg").path
        try Data("this is not audio at all".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try TrackSource.load(path: path, sampleRate: 48_000)
        } throws: { error in
            "\(error)".contains(path)
        }
    }
}
