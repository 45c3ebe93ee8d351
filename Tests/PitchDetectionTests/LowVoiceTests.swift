import AudioFiles
import Foundation
import Testing
@testable import PitchDetection

/// Issue 11: bass and baritone voices (E2…C3) whose fundamental is weak and whose 3rd, 5th or
/// 6th harmonic sits on a narrow first formant were read at that harmonic (+19/+28/+31 semitones).
@Suite struct LowVoiceTests {
    /// A sung vowel: harmonics of `f0` with a −6 dB/octave source, a fundamental 20 dB down
    /// (small microphone, distance), formants F1 = `formantHarmonic` × f0 (60 Hz wide),
    /// 1150 Hz and 2500 Hz; ±20 cent vibrato at 5.5 Hz and ±8 cents of irregular jitter.
    static func vowel(
        f0: Double, formantHarmonic: Double, fundamentalGain: Double = 0.1, seconds: Double = 0.8, rate: Double = 48_000
    ) -> [Float] {
        let formants = [(formantHarmonic * f0, 60.0), (1150, 100), (2500, 150)]
        let count = Int(seconds * rate)
        var phase = 0.0
        var out = [Double](repeating: 0, count: count)
        let harmonics = Int(5000 / f0)
        let gains: [Double] = (1...harmonics).map { k in
            let f = Double(k) * f0
            var g = 1 / Double(k)
            for (centre, width) in formants {
                g /= sqrt(pow(1 - pow(f / centre, 2), 2) + pow(f * width / (centre * centre), 2))
            }
            return k == 1 ? g * fundamentalGain : g
        }
        for i in 0..<count {
            let t = Double(i) / rate
            phase += 2 * .pi * pitch(f0, at: t) / rate
            var v = 0.0
            for k in 1...harmonics { v += gains[k - 1] * sin(Double(k) * phase) }
            out[i] = v
        }
        let peak = out.map(abs).max() ?? 1
        return out.map { Float(0.3 * $0 / peak) }
    }

    static func pitch(_ f0: Double, at t: Double) -> Double {
        let cents = 20 * sin(2 * .pi * 5.5 * t)
            + 8 * (sin(2 * .pi * 7.3 * t) + sin(2 * .pi * 13.1 * t + 1) + sin(2 * .pi * 17.9 * t + 2)) / 3
        return f0 * pow(2, cents / 1200)
    }

    @Test(arguments: [82.4, 98, 110, 130.8])
    func formantOnAHarmonicIsNotTheFundamental(f0: Double) {
        for formantHarmonic in [3.0, 5, 6] {
            let frames = PitchDetector(sampleRate: 48_000).analyze(Self.vowel(f0: f0, formantHarmonic: formantHarmonic))
                .filter { $0.time > 0.1 && $0.time < 0.7 }
            let right = frames.filter { $0.isVoiced && abs(TestSignals.cents($0.frequency, Self.pitch(f0, at: $0.time))) < 50 }
            let median = frames.filter(\.isVoiced).map(\.frequency).sorted().dropFirst(frames.count / 2).first ?? 0
            #expect(Double(right.count) >= 0.9 * Double(frames.count),
                    "\(f0) Hz, F1 on harmonic \(Int(formantHarmonic)): \(right.count)/\(frames.count) frames right, median \(median) Hz")
        }
    }

    @Test func higherVoicesAreNotPushedDown() {
        // The harmonic-reading check must never move a clear higher voice below its fundamental
        // (first formant between harmonics, fundamental at its natural level).
        for f0 in [165.0, 196, 330, 523, 880] {
            let frames = PitchDetector(sampleRate: 48_000).analyze(Self.vowel(f0: f0, formantHarmonic: 2.5, fundamentalGain: 1))
                .filter { $0.time > 0.1 && $0.time < 0.7 }
            let voiced = frames.filter(\.isVoiced)
            let below = voiced.filter { TestSignals.cents($0.frequency, Self.pitch(f0, at: $0.time)) < -50 }
            #expect(Double(voiced.count) >= 0.9 * Double(frames.count), "\(f0) Hz: \(voiced.count)/\(frames.count) voiced")
            #expect(below.isEmpty, "\(f0) Hz: \(below.count) frames below the fundamental: \(below.prefix(3).map(\.frequency))")
        }
    }

    /// A real low male voice (espeak-ng, en+m3 at pitch 25: about 80–100 Hz): its clear vowel
    /// frames are read at the fundamental, never at a harmonic. Skips when espeak-ng is missing.
    @Test func espeakBassVoiceIsReadAtItsFundamental() throws {
        guard let espeak = ["/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng"].first(where: FileManager.default.isExecutableFile)
        else {
            print("skipped: espeak-ng is not installed (scripts/setup --test installs it)")
            return
        }
        let path = NSTemporaryDirectory() + "low-voice-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: espeak)
        process.arguments = ["-v", "en+m3", "-p", "25", "-s", "130", "-w", path, "la la la, we sing along all day long"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let recording = try AudioFile.read(path: path)
        let clear = PitchDetector(sampleRate: recording.sampleRate).analyze(recording.mono()).filter { $0.isVoiced && $0.clarity >= 0.7 }
        #expect(clear.count > 100)
        let median = Double(clear.map(\.frequency).sorted()[clear.count / 2])
        #expect(median > 65 && median < 130, "median \(median) Hz")
        let harmonicReadings = clear.filter { Double($0.frequency) > 1.9 * median }
        #expect(harmonicReadings.isEmpty, "\(harmonicReadings.count) clear frames at a harmonic: \(harmonicReadings.prefix(5).map(\.frequency))")
    }
}
