@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// Vocal reduction in the playback renderer: applied before Rubber Band, switched like a key
/// change, and the bleed reference (the tap) is what the speakers really play.
@Suite struct VocalReductionPlaybackTests {
    /// Renders `track` from 0 for `frames` stereo frames; the tap's copy of them too.
    static func play(_ track: TrackSource, frames: Int, reduce: Bool, key: Int = 0)
        -> (left: [Float], right: [Float], tap: [Float]) {
        let renderer = PlaybackRenderer.playing(track, reduce: reduce, key: key)
        let out = renderer.renderInterleaved(frames: frames)
        var tap = [Float](repeating: 0, count: frames)
        tap.withUnsafeMutableBufferPointer { _ = renderer.tap.copy(from: 0, count: frames, into: $0.baseAddress!) }
        return (stride(from: 0, to: 2 * frames, by: 2).map { out[$0] }, stride(from: 1, to: 2 * frames, by: 2).map { out[$0] }, tap)
    }

    static func energy(_ x: ArraySlice<Float>) -> Double { x.reduce(0) { $0 + Double($1) * Double($1) } }

    @Test func theRendererRemovesTheCentreVocalBeforeKeyChange() {
        let song = StereoTestMix(seconds: 4)
        let vocalOnly = TrackSource(left: song.vocal.left, right: song.vocal.right, sampleRate: song.rate)
        let frames = Int(3.5 * song.rate)
        let skip = Int(0.2 * song.rate)  // past the fade-in and the stretcher's start
        for key in [0, 3] {
            let plain = Self.play(vocalOnly, frames: frames, reduce: false, key: key)
            let reduced = Self.play(vocalOnly, frames: frames, reduce: true, key: key)
            let before = Self.energy(plain.left[skip...]) + Self.energy(plain.right[skip...])
            let after = Self.energy(reduced.left[skip...]) + Self.energy(reduced.right[skip...])
            let cut = StereoTestMix.decibels(before: before, after: after)
            #expect(cut >= 15, "key \(key): vocal reduced by \(cut) dB in the renderer")
        }
    }

    @Test func theBleedReferenceIsWhatTheSpeakersPlay() {
        let song = StereoTestMix(seconds: 3)
        let track = TrackSource(left: song.mix.left, right: song.mix.right, sampleRate: song.rate)
        let frames = Int(2.5 * song.rate)
        let reduced = Self.play(track, frames: frames, reduce: true)
        // Reduced: L = side + bass, R = −side + bass; the reference keeps both (the left channel),
        // so the side-panned instruments the room hears are in it and the cancelled vocal is not.
        #expect(reduced.tap == reduced.left)
        let plain = Self.play(track, frames: frames, reduce: false)
        #expect(plain.tap == zip(plain.left, plain.right).map { 0.5 * ($0 + $1) })
        // What the speakers play differs between the two (the vocal is gone), and so do the references.
        let skip = Int(0.2 * song.rate)
        let change = StereoTestMix.decibels(before: Self.energy(plain.tap[skip...]),
                                            after: Self.energy(zip(plain.tap, reduced.tap).map { $0 - $1 }[skip...]))
        #expect(change < 6, "the reference must change with the reduction (difference only \(change) dB below it)")
        // `karaoke score` renders the same reference offline.
        let offline = PlayedBacking.render(track, vocalReduction: true)
        #expect(Array(offline.prefix(9600)) == Array(reduced.tap.prefix(9600)))
    }

    @Test func switchingWhilePlayingTakesEffectAfterAShortDip() {
        let song = StereoTestMix(seconds: 4)
        let vocalOnly = TrackSource(left: song.vocal.left, right: song.vocal.right, sampleRate: song.rate)
        let transport = Transport()
        let renderer = PlaybackRenderer(sampleRate: song.rate, clock: PlaybackClock(), transport: transport)
        renderer.track = vocalOnly
        renderer.trackChanged()
        transport.request(.playing)
        let block = 4800
        var out = [Float](repeating: 0, count: 2 * block)
        func blockEnergy() -> Double {
            out.withUnsafeMutableBufferPointer { renderer.render(into: $0.baseAddress!, frames: block) }
            return Self.energy(out[...])
        }
        for _ in 0..<5 { _ = blockEnergy() }
        let on = blockEnergy()
        transport.vocalReduction.store(true, ordering: .releasing)
        _ = blockEnergy()  // the dip: fade out, re-prime, fade in
        let off = (0..<5).map { _ in blockEnergy() }.reduce(0, +) / 5
        #expect(StereoTestMix.decibels(before: on, after: off) >= 15, "after switching on: \(on) → \(off)")
    }
}
