@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// Vocal reduction (centre-channel cancellation with the bass kept), measured on a full mix
/// built by `StereoTestMix`: a centre vocal over a stereo backing. The filter is linear, so
/// what is left of the vocal in the reduced mix is `reduce(mix) − reduce(backing)`.
@Suite struct VocalReducerTests {
    static func reduce(_ x: StereoTestMix.Stereo, rate: Double, block: Int = 441) -> StereoTestMix.Stereo {
        var reducer = VocalReducer(sampleRate: rate)
        var l = x.left, r = x.right
        reducer.process(left: &l, right: &r, block: block)
        return StereoTestMix.Stereo(left: l, right: r)
    }

    @Test func removesAtLeast15dBOfACentreVocalAndKeepsTheBassAndTheSides() {
        let song = StereoTestMix()
        let reducedMix = Self.reduce(song.mix, rate: song.rate)
        let reducedBacking = Self.reduce(song.backing, rate: song.rate)
        let residual = StereoTestMix.Stereo(left: zip(reducedMix.left, reducedBacking.left).map(-),
                                            right: zip(reducedMix.right, reducedBacking.right).map(-))
        let vocalCut = StereoTestMix.decibels(before: song.vocal.energy, after: residual.energy)
        #expect(vocalCut >= 15, "vocal reduced by \(vocalCut) dB")

        let bassLoss = StereoTestMix.decibels(before: song.bass.energy, after: Self.reduce(song.bass, rate: song.rate).energy)
        #expect(bassLoss < 1.5, "bass lost \(bassLoss) dB")
        // The backing's side (what differs between its channels) passes untouched.
        let side = { (x: StereoTestMix.Stereo) in zip(x.left, x.right).reduce(0.0) { $0 + pow(Double($1.0 - $1.1), 2) } }
        let sideLoss = StereoTestMix.decibels(before: side(song.backing), after: side(reducedBacking))
        #expect(abs(sideLoss) < 0.01, "side changed by \(sideLoss) dB")
        // Vocal against backing before and after: the singer's guide is gone, the band is not.
        let before = StereoTestMix.decibels(before: song.vocal.energy, after: song.backing.energy)
        let after = StereoTestMix.decibels(before: residual.energy, after: reducedBacking.energy)
        print(String(format: "vocal reduction: vocal −%.1f dB, bass −%.2f dB, backing −%.1f dB; vocal/backing %.1f dB → %.1f dB",
                     vocalCut, bassLoss, StereoTestMix.decibels(before: song.backing.energy, after: reducedBacking.energy), before, after))
    }

    @Test func leavesAMonoTrackOnlyItsBass() {
        // A mono track is all centre: above the bass it is cancelled whole.
        let rate = 48_000.0
        let tone = (0..<48_000).map { Float(0.5 * sin(2 * .pi * 440 * Double($0) / rate)) }
        let reduced = Self.reduce(StereoTestMix.Stereo(left: tone, right: tone), rate: rate)
        let cut = StereoTestMix.decibels(before: StereoTestMix.Stereo(left: tone, right: tone).energy, after: reduced.energy)
        #expect(cut > 30, "440 Hz mono reduced by \(cut) dB")
    }
}
