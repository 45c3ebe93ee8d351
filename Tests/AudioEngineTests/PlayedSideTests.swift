@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// The second bleed reference channel: the side (L − R) / 2 of what the renderer wrote, recorded
/// by the tap beside the mono reference, and rendered identically offline for `karaoke score`.
@Suite struct PlayedSideTests {
    @Test func theTapRecordsTheSideOfWhatPlayedAndKaraokeScoreRendersTheSame() {
        let song = StereoTestMix(seconds: 1)
        let track = TrackSource(left: song.mix.left, right: song.mix.right, sampleRate: song.rate)
        let frames = 9600
        for reduce in [false, true] {
            let renderer = PlaybackRenderer.playing(track, reduce: reduce)
            let out = renderer.renderInterleaved(frames: frames)
            var mono = [Float](repeating: 0, count: frames), side = mono
            mono.withUnsafeMutableBufferPointer { m in
                side.withUnsafeMutableBufferPointer { s in
                    _ = renderer.tap.copy(from: 0, count: frames, into: m.baseAddress!, side: s.baseAddress!)
                }
            }
            var expected = [Float](repeating: 0, count: frames)
            for i in 0..<frames { expected[i] = 0.5 * (out[2 * i] - out[2 * i + 1]) }
            #expect(side == expected, "reduce \(reduce)")
            // With the centre cancelled the side carries what the speakers play in anti-phase.
            #expect(side.contains { abs($0) > 1e-3 }, "reduce \(reduce)")
            let offline = PlayedBacking.renderChannels(track, vocalReduction: reduce)
            #expect(Array(offline.side.prefix(frames)) == side, "reduce \(reduce)")
            #expect(Array(offline.reference.prefix(frames)) == mono, "reduce \(reduce)")
        }
    }

    @Test func aMonoOutputHasASilentSide() {
        let rate = 48_000.0
        let tone = (0..<9600).map { Float(0.3 * sin(2 * Double.pi * 220 * Double($0) / rate)) }
        let played = PlayedBacking.renderChannels(TrackSource(left: tone, right: tone, sampleRate: rate))
        #expect(played.side.allSatisfy { $0 == 0 })
        #expect(played.reference.contains { abs($0) > 0.1 })
    }
}
