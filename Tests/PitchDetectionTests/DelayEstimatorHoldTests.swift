import Foundation
@testable import PitchDetection
import Testing

/// The bleed delay holds still through a fractional delay and a loud voice, and still follows a
/// real move of the speakers' delay.
@Suite struct DelayEstimatorHoldTests {
    static let rate = 12_000.0
    static let block = 6_000

    /// Deterministic noise (a music-like wideband backing and an unrelated "voice").
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 2_000_000) / 1_000_000 - 1
        }
    }

    /// `signal` delayed by a fractional `delay` (linear interpolation, as the live reference is made).
    static func delayed(_ signal: [Float], by delay: Double) -> [Float] {
        (0..<signal.count).map { i in
            let p = Double(i) - delay
            guard p >= 0 else { return 0 }
            let j = Int(p), f = Float(p - Double(j))
            return j + 1 < signal.count ? signal[j] * (1 - f) + signal[j + 1] * f : 0
        }
    }

    /// Runs `mic`/`backing` through an estimator; returns how often its delay moved after the
    /// first estimate, and the final delay.
    static func run(mic: [Float], backing: [Float], hold: Int) -> (moves: Int, delay: Int) {
        let estimator = DelayEstimator(blockLength: block, maxDelay: 3_000, initialDelay: 240, holdTolerance: hold)
        var moves = 0, last: Int?
        for i in mic.indices {
            estimator.push(mic: mic[i], backing: backing[i])
            if i % block == 0, i > 3 * block {
                if let last, last != estimator.delay { moves += 1 }
                last = estimator.delay
            }
        }
        return (moves, estimator.delay)
    }

    @Test func aFractionalDelayUnderAVoiceDoesNotMoveTheAlignment() {
        let count = 60 * Int(Self.rate)
        let backing = Self.noise(count, seed: 1), voice = Self.noise(count, seed: 2)
        // The delay wanders between 300.3 and 300.7 samples (a reference interpolated at a
        // fractional position, a clock a hair off), under a voice 6 dB louder than the bleed.
        var mic = [Float](repeating: 0, count: count)
        let a = Self.delayed(backing, by: 300.3), b = Self.delayed(backing, by: 300.7)
        for i in 0..<count {
            let w = Float(0.5 + 0.5 * sin(Double(i) / Self.rate * 0.9))
            let bleed: Float = w * a[i] + (1 - w) * b[i]
            mic[i] = 0.5 * bleed + voice[i]
        }
        let held = Self.run(mic: mic, backing: backing, hold: 18)
        #expect(held.moves == 0, "the alignment moved \(held.moves) times")
        #expect(abs(held.delay - 300) <= 18, "delay \(held.delay)")
    }

    @Test func aRealMoveIsFollowedWithinTwoBlocks() {
        let count = 30 * Int(Self.rate)
        let backing = Self.noise(count, seed: 3)
        let early = Self.delayed(backing, by: 300), late = Self.delayed(backing, by: 900)
        let switchAt = 15 * Int(Self.rate)
        let mic = (0..<count).map { $0 < switchAt ? early[$0] : late[$0] }
        let estimator = DelayEstimator(blockLength: Self.block, maxDelay: 3_000, initialDelay: 0, holdTolerance: 18)
        var atSwitch = -1
        var followedAfter: Int?
        for i in mic.indices {
            estimator.push(mic: mic[i], backing: backing[i])
            if i == switchAt { atSwitch = estimator.delay }
            if i > switchAt, followedAfter == nil, abs(estimator.delay - 900) <= 2 { followedAfter = i - switchAt }
        }
        #expect(abs(atSwitch - 300) <= 2, "before the move: \(atSwitch)")
        // Two blocks to confirm, plus the block in which the move happened and the averaging.
        let after = followedAfter ?? Int.max
        #expect(after <= 4 * Self.block, "followed the move to 900 samples after \(after) samples")
    }

    @Test func withoutBleedTheReferenceChangesNothing() {
        // A clean recording (the mic far from the speakers, or a headset): no bleed to find, so
        // the detector must read exactly what it reads without the reference.
        let rate = 16_000.0
        let count = 20 * Int(rate)
        let backing = Self.noise(count, seed: 5).map { $0 * 0.3 }
        let voice = (0..<count).map { i -> Float in
            let t = Double(i) / rate
            let f = [196.0, 220, 247, 262][(i / Int(rate)) % 4]
            return Float((1...6).reduce(0.0) { $0 + sin(2 * Double.pi * f * Double($1) * t) / Double($1) } * 0.2)
        }
        let estimator = DelayEstimator(blockLength: 8_000, maxDelay: 4_000, initialDelay: 0, holdTolerance: 80)
        for i in 0..<count { estimator.push(mic: voice[i], backing: backing[i]) }
        #expect(!estimator.isLocked, "found a bleed delay \(estimator.delay) where there is none")
        let plain = PitchDetector(sampleRate: rate).analyze(voice)
        let referenced = PitchDetector(sampleRate: rate).analyze(voice, backing: backing)
        #expect(plain.map(\.frequency) == referenced.map(\.frequency))
    }

    /// A phone seat's timing watch reads the alignment only when a block confirmed it: blocks
    /// with the backing in the mic count, silence (between songs) holds the delay but adds no
    /// confirmation, so a delay held in silence is never taken for a fresh measurement.
    @Test func onlyBlocksThatHearTheBackingConfirmTheAlignment() {
        let count = 20 * Int(Self.rate)
        let backing = Self.noise(count, seed: 5)
        let heard = Self.delayed(backing, by: 480)
        let estimator = DelayEstimator(blockLength: Self.block, maxDelay: 3_000, initialDelay: 0, holdTolerance: 18)
        let silentFrom = 10 * Int(Self.rate)
        var atSilence = 0
        for i in 0..<count {
            // The song stops at 10 s: neither the speakers nor the mic carry it any more.
            let playing = i < silentFrom
            estimator.push(mic: playing ? heard[i] : 0, backing: playing ? backing[i] : 0)
            // The block that ends inside the song still heard it; the ones after hear nothing.
            if i == silentFrom + Self.block { atSilence = estimator.confirmations }
        }
        #expect(abs(estimator.delay - 480) <= 2, "delay \(estimator.delay)")
        // About one per 0.5 s block while the backing plays (less the first blocks that fill the history).
        #expect(atSilence >= 14, "confirmations while playing: \(atSilence)")
        #expect(estimator.confirmations == atSilence, "silence confirmed the held delay")
        #expect(estimator.isLocked)
    }
}
