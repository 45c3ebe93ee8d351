import AudioFiles
import Foundation
import Testing
import TestSupport

/// `karaoke pitch` end to end; `scripts/test` sets KARAOKE_BIN to the built binary.
@Suite(.enabled(if: KaraokeCommand.isAvailable))
struct PitchCommandTests {
    private func run(_ arguments: [String]) throws -> KaraokeCommand.Run { try KaraokeCommand.run(arguments) }

    @Test func printsOneRowPerHopWithTheTonesPitch() throws {
        let path = NSTemporaryDirectory() + "pitch-cli-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Stereo 44.1 kHz: 0.5 s of silence, then 1 s of 392 Hz.
        let rate = 44_100.0
        let tone = [Float](repeating: 0, count: 22_050) + TestSignals.sine(392, seconds: 1, rate: rate)
        try AudioFile.write(AudioBuffer(samples: tone.flatMap { [$0, $0] }, sampleRate: rate, channels: 2), to: path)
        let result = try run(["pitch", path])
        #expect(result.status == 0, "\(result.err)")
        let rows = result.out.split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }
        #expect(rows.count == 150)
        #expect(rows.allSatisfy { $0.count == 2 })
        for (k, row) in rows.enumerated() where row.count == 2 {
            #expect(abs(row[0] - Double(k) * 0.01) < 1e-4)
            if row[0] < 0.45 { #expect(row[1] == 0, "t=\(row[0]) should be unvoiced") }
            if row[0] > 0.55 && row[0] < 1.45 { #expect(abs(1200 * log2(row[1] / 392)) < 10, "t=\(row[0]): \(row[1])") }
        }
    }

    @Test func csvHasTheHeaderAndTwoColumnsDetailsAddClarityAndLevel() throws {
        let path = NSTemporaryDirectory() + "pitch-cli-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AudioFile.write(AudioBuffer(samples: TestSignals.sine(220, seconds: 0.3, rate: 48_000), sampleRate: 48_000, channels: 1), to: path)
        let csv = try run(["pitch", path, "--csv"])
        #expect(csv.status == 0, "\(csv.err)")
        let lines = csv.out.split(separator: "\n")
        #expect(lines.first == "time_s,f0_hz")
        #expect(lines.count == 31)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").count == 2 })
        let detailed = try run(["pitch", path, "--csv", "--details"])
        let detailLines = detailed.out.split(separator: "\n")
        #expect(detailLines.first == "time_s,f0_hz,clarity,level_db")
        #expect(detailLines.dropFirst().allSatisfy { $0.split(separator: ",").count == 4 })
    }

    @Test func unreadableFileIsAClearError() throws {
        let result = try run(["pitch", "/nonexistent/take.wav"])
        #expect(result.status != 0)
        #expect(result.err.contains("/nonexistent/take.wav"))
    }
}
