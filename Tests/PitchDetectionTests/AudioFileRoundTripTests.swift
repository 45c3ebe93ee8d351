import AudioFiles
import Foundation
import Testing
@testable import PitchDetection

@Suite struct AudioFileRoundTripTests {
    private func temporaryPath(_ ext: String) -> String {
        NSTemporaryDirectory() + "pitch-roundtrip-\(UUID().uuidString).\(ext)"
    }

    @Test(arguments: ["wav", "flac", "ogg"])
    func writtenFilesReadBackWithRateChannelsAndPitch(ext: String) throws {
        let rate = 44_100.0
        let left = TestSignals.sine(440, seconds: 0.5, rate: rate, amplitude: 0.4)
        let right = TestSignals.sine(660, seconds: 0.5, rate: rate, amplitude: 0.4)
        var interleaved = [Float](repeating: 0, count: left.count * 2)
        for i in left.indices { interleaved[2 * i] = left[i]; interleaved[2 * i + 1] = right[i] }
        let path = temporaryPath(ext)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AudioFile.write(AudioBuffer(samples: interleaved, sampleRate: rate, channels: 2), to: path)
        let back = try AudioFile.read(path: path)
        #expect(back.sampleRate == rate)
        #expect(back.channels == 2)
        #expect(abs(back.frames - left.count) <= (ext == "ogg" ? 2048 : 0))
        if ext != "ogg" {  // lossless: sample-exact within 16-bit quantisation
            let worst = zip(back.samples, interleaved).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1.0 / 16_000)
        }
        // Each channel still carries its own tone.
        for (channel, hz) in [(0, 440.0), (1, 660.0)] {
            let frames = PitchDetector(sampleRate: back.sampleRate).analyze(back.channel(channel))
                .filter { $0.time > 0.05 && $0.time < 0.4 }
            #expect(!frames.isEmpty)
            #expect(frames.allSatisfy { $0.isVoiced && abs(TestSignals.cents($0.frequency, hz)) < 10 })
        }
    }

    @Test func resamplingFrom44_1To48kHzKeepsAToneItsFrequency() {
        let tone = TestSignals.sine(523.25, seconds: 0.6, rate: 44_100)
        let resampled = Resampler.resample(tone, from: 44_100, to: 48_000)
        #expect(abs(resampled.count - Int(0.6 * 48_000)) <= 1)
        let frames = PitchDetector(sampleRate: 48_000).analyze(resampled).filter { $0.time > 0.05 && $0.time < 0.55 }
        #expect(!frames.isEmpty)
        #expect(frames.allSatisfy { $0.isVoiced && abs(TestSignals.cents($0.frequency, 523.25)) < 5 })
    }

    @Test func unreadableFileNamesThePath() {
        let path = temporaryPath("wav")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("not audio".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: AudioFileError.self) { try AudioFile.read(path: path) }
        do { _ = try AudioFile.read(path: path) } catch { #expect(error.description.contains(path)) }
    }
}
