import Foundation

/// A full mix built the way studios pan one: a sung lead vocal in the centre over a stereo
/// backing (bass in the centre, a chord pad to the left, a plucked guitar to the right, and
/// hi-hat noise different in each channel). Each part is kept apart so a test can measure what
/// a processor does to the vocal and to the backing of the same mix (vocal reduction is linear:
/// its effect on the mix is the sum of its effects on the parts).
public struct StereoTestMix: Sendable {
    public struct Stereo: Sendable {
        public var left: [Float]
        public var right: [Float]
        public init(left: [Float], right: [Float]) {
            self.left = left
            self.right = right
        }
        public static func + (a: Stereo, b: Stereo) -> Stereo {
            Stereo(left: zip(a.left, b.left).map(+), right: zip(a.right, b.right).map(+))
        }
        /// Energy of both channels.
        public var energy: Double {
            left.reduce(0) { $0 + Double($1) * Double($1) } + right.reduce(0) { $0 + Double($1) * Double($1) }
        }
    }

    public let rate: Double
    public let vocal: Stereo
    /// Bass, pad, guitar and hi-hat.
    public let backing: Stereo
    /// The centre-panned bass alone (part of `backing`).
    public let bass: Stereo
    public var mix: Stereo { backing + vocal }

    /// `seconds` of the song; `seed` fixes the hi-hat noise.
    public init(seconds: Double = 8, rate: Double = 48_000, seed: UInt64 = 7) {
        self.rate = rate
        let n = Int(seconds * rate)
        func time(_ i: Int) -> Double { Double(i) / rate }

        // Lead vocal: a melody from G3 to E4 (a quarter second per note), vibrato, twelve
        // harmonics shaped by two formants (≈ an open "ah"), note attacks and releases.
        let melody = [196.0, 220, 247, 262, 294, 330, 294, 262, 247, 220, 262, 294, 330, 262, 220, 196]
        var v = [Float](repeating: 0, count: n)
        var phase = 0.0
        for i in 0..<n {
            let t = time(i)
            let noteLength = 0.5
            let note = melody[Int(t / noteLength) % melody.count]
            let within = t.truncatingRemainder(dividingBy: noteLength)
            let f0 = note * pow(2, 0.3 / 12 * sin(2 * .pi * 5.5 * t))
            phase += 2 * .pi * f0 / rate
            let envelope = min(1, within / 0.03) * min(1, (noteLength - within) / 0.05)
            var sample = 0.0
            for h in 1...12 {
                let f = f0 * Double(h)
                let formant = exp(-pow((f - 700) / 300, 2)) + 0.6 * exp(-pow((f - 1150) / 350, 2)) + 0.15
                sample += formant / Double(h) * sin(Double(h) * phase)
            }
            v[i] = Float(0.12 * envelope * sample)
        }
        vocal = Stereo(left: v, right: v)

        // Bass in the centre: 55, 73, 82, 65 Hz, two seconds each.
        let bassNotes = [55.0, 73.4, 82.4, 65.4]
        let b = (0..<n).map { i -> Float in
            let f = bassNotes[Int(time(i) / 2) % bassNotes.count]
            return Float(0.25 * sin(2 * .pi * f * time(i)))
        }
        bass = Stereo(left: b, right: b)

        // Pad (C major triad) mostly left, guitar plucks mostly right, hi-hat noise per channel.
        var generator = SeededGenerator(seed: seed)
        var left = [Float](repeating: 0, count: n), right = left
        for i in 0..<n {
            let t = time(i)
            let pad = 0.06 * (sin(2 * .pi * 261.6 * t) + sin(2 * .pi * 329.6 * t) + sin(2 * .pi * 392 * t))
            let pluckTime = t.truncatingRemainder(dividingBy: 0.375)
            let pluckNote = [392.0, 440, 494, 587][Int(t / 0.375) % 4]
            let guitar = 0.15 * exp(-pluckTime * 8) * (sin(2 * .pi * pluckNote * t) + 0.4 * sin(4 * .pi * pluckNote * t))
            let hat = t.truncatingRemainder(dividingBy: 0.25) < 0.03
            let noiseL = hat ? Double.random(in: -0.03...0.03, using: &generator) : 0
            let noiseR = hat ? Double.random(in: -0.03...0.03, using: &generator) : 0
            left[i] = Float(0.8 * pad + 0.25 * guitar + noiseL) + b[i]
            right[i] = Float(0.3 * pad + 0.85 * guitar + noiseR) + b[i]
        }
        backing = Stereo(left: left, right: right)
    }

    /// `10·log10(before / after)`: how far `after` lies below `before`, in dB.
    public static func decibels(before: Double, after: Double) -> Double {
        10 * log10(before / max(after, 1e-30))
    }
}
