import AudioFiles
import Foundation
import Testing
@testable import PitchDetection

@Suite struct AudioFileRoundTripTests {
    private func temporaryPath(_ ext: String) -> String {
        NSTemporaryDirectory() + "pitch-roundtrip-\(UUID().uuidString).\(ext)"
    }

    /// Every format the backing track may come in (as Debian's libsndfile reads them); lossy ones
    /// are checked for length within a codec frame and for pitch. Opus is written at 48 kHz, the
    /// rate it is decoded at.
    @Test(arguments: ["wav", "flac", "ogg", "opus", "mp3"])
    func writtenFilesReadBackWithRateChannelsAndPitch(ext: String) throws {
        let rate = ext == "opus" ? 48_000.0 : 44_100.0
        let lossy = ["ogg", "opus", "mp3"].contains(ext)
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
        #expect(abs(back.frames - left.count) <= (lossy ? 2048 : 0), "\(back.frames) frames read, \(left.count) written")
        if !lossy {  // lossless: sample-exact within 16-bit quantisation
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

    @Test func resamplingKeepsLevelInBandAndRemovesAliasesOutOfBand() {
        func rms(_ x: ArraySlice<Float>) -> Double { (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(x.count)).squareRoot() }
        // An in-band tone keeps its level (within 1 %), going up and going down.
        let tone = TestSignals.sine(1_000, seconds: 0.5, rate: 44_100)
        let up = Resampler.resample(tone, from: 44_100, to: 48_000)
        let down = Resampler.resample(tone, from: 44_100, to: 16_000)
        let reference = rms(tone[2_000..<20_000])
        #expect(abs(rms(up[2_000..<20_000]) / reference - 1) < 0.01)
        #expect(abs(rms(down[1_000..<7_000]) / reference - 1) < 0.01)
        // 10 kHz is above 16 kHz's Nyquist: it must be filtered out, not folded to 6 kHz.
        let high = TestSignals.sine(10_000, seconds: 0.5, rate: 48_000)
        let folded = Resampler.resample(high, from: 48_000, to: 16_000)
        #expect(rms(folded[1_000..<7_000]) < 0.01 * rms(high[2_000..<20_000]))
    }

    @Test func unreadableFileNamesThePath() {
        let path = temporaryPath("wav")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("not audio".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: AudioFileError.self) { try AudioFile.read(path: path) }
        do { _ = try AudioFile.read(path: path) } catch { #expect(error.description.contains(path)) }
    }
}
