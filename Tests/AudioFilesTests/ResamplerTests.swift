import AudioFiles
import Foundation
import Testing

@Suite("Resampler: whole buffers through libsoxr")
struct ResamplerTests {
    private func sine(_ hz: Double, seconds: Double, rate: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { Float(0.5 * sin(2 * Double.pi * hz * Double($0) / rate)) }
    }

    private func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(x.count, 1))).squareRoot()
    }

    @Test func aClickStaysAtItsTimeAndTheLengthFollowsTheRatio() {
        var input = [Float](repeating: 0, count: 44_100)
        input[11_025] = 1  // 0.25 s
        let output = Resampler.resample(input, from: 44_100, to: 48_000)
        #expect(output.count == 48_000)
        let peak = output.indices.max { abs(output[$0]) < abs(output[$1]) }!
        #expect(abs(peak - 12_000) <= 1, "the click moved to sample \(peak)")
    }

    @Test func channelsStayApartAndKeepTheirLevel() {
        let tone = sine(440, seconds: 0.5, rate: 44_100)
        var interleaved = [Float](repeating: 0, count: tone.count * 2)
        for (i, sample) in tone.enumerated() { interleaved[2 * i] = sample }
        let buffer = AudioBuffer(samples: interleaved, sampleRate: 44_100, channels: 2)
        let resampled = Resampler.resample(buffer, to: 48_000)
        #expect(resampled.sampleRate == 48_000 && resampled.channels == 2 && resampled.frames == 24_000)
        let left = resampled.channel(0), right = resampled.channel(1)
        #expect(abs(rms(left[2_000..<22_000]) / rms(tone[2_000..<20_000]) - 1) < 0.01)
        #expect(rms(right[...]) < 1e-5, "the silent channel picked up \(rms(right[...]))")
    }

    @Test func aCancelledConversionReturnsNothing() {
        let buffer = AudioBuffer(samples: sine(440, seconds: 2, rate: 44_100), sampleRate: 44_100, channels: 1)
        var asked = 0
        let result = Resampler.resample(buffer, to: 48_000) { asked += 1; return asked > 2 }
        #expect(result == nil && asked == 3)
        #expect(Resampler.resample(buffer, to: 48_000) { false }?.frames == 96_000)
    }

    @Test func theSameRateAndEmptyInputPassThrough() {
        let tone = sine(440, seconds: 0.1, rate: 48_000)
        #expect(Resampler.resample(tone, from: 48_000, to: 48_000) == tone)
        #expect(Resampler.resample([], from: 44_100, to: 48_000).isEmpty)
    }
}
