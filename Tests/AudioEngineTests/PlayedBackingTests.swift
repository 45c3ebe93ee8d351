@testable import AudioEngine
import Foundation
import Testing

/// The offline render of the backing as the room plays it (`karaoke score`'s bleed reference
/// with --key/--tempo): the engine's renderer, so key and tempo land as they do live.
@Suite struct PlayedBackingTests {
    @Test func keyAndTempoAreAppliedAsTheEngineAppliesThem() throws {
        let seconds = 4.0
        let track = TrackSource(left: TestSignals.sine(440, seconds: seconds), right: TestSignals.sine(440, seconds: seconds),
                                sampleRate: TestSignals.rate)
        let plain = PlayedBacking.render(track)
        let shifted = PlayedBacking.render(track, keySemitones: 2, tempo: 1.25)
        let f0 = try #require(TestSignals.frequency(plain[24_000..<96_000]))
        let f2 = try #require(TestSignals.frequency(shifted[24_000..<96_000]))
        #expect(abs(f0 - 440) < 1, "key 0: \(f0) Hz")
        #expect(abs(f2 - 493.88) < 1.5, "key +2: \(f2) Hz")
        // The track plays to its end and stops: at 1.25× it lasts 3.2 s instead of 4.
        let sounding = { (x: [Float]) in Double((x.lastIndex { abs($0) > 0.01 } ?? 0) + 1) / TestSignals.rate }
        #expect(abs(sounding(plain) - seconds) < 0.05, "plays \(sounding(plain)) s")
        #expect(abs(sounding(shifted) - seconds / 1.25) < 0.05, "plays \(sounding(shifted)) s at 1.25×")
        // Output frame i is what the speakers were fed i frames after play: the live tap's content.
        let renderer = PlaybackRenderer(sampleRate: TestSignals.rate, clock: PlaybackClock(), transport: Transport())
        renderer.track = track
        renderer.trackChanged()
        renderer.transport.request(.playing)
        var out = [Float](repeating: 0, count: 2 * 9600)
        out.withUnsafeMutableBufferPointer { renderer.render(into: $0.baseAddress!, frames: 9600) }
        var tapped = [Float](repeating: 0, count: 9600)
        tapped.withUnsafeMutableBufferPointer { _ = renderer.tap.copy(from: 0, count: 9600, into: $0.baseAddress!) }
        #expect(Array(plain.prefix(9600)) == tapped)
    }
}
