import Foundation
import Testing
import TestSupport
import LyricTimeline
import SongModel

func line(_ start: Double, _ end: Double, _ words: [(String, Double, Double)] = []) -> LyricLine {
    LyricLine(start: start, end: end, syllables: words.isEmpty
        ? [Syllable(text: "x", start: start, end: end)]
        : words.map { Syllable(text: $0.0, start: $0.1, end: $0.2) })
}

@Suite struct TimelineTests {
    let timeline = Timeline(lines: [line(10, 12), line(12, 15), line(20, 25)])

    @Test func beforeInsideGapsAndAfter() {
        #expect(timeline.lineIndex(at: -1) == nil)
        #expect(timeline.lineIndex(at: 9.999) == nil)
        #expect(timeline.lineIndex(at: 10) == 0)
        #expect(timeline.lineIndex(at: 11.99) == 0)
        #expect(timeline.lineIndex(at: 12) == 1)          // a line ends where the next begins
        #expect(timeline.lineIndex(at: 15) == nil)        // end is exclusive
        #expect(timeline.lineIndex(at: 17) == nil)        // gap
        #expect(timeline.lineIndex(at: 24.9) == 2)
        #expect(timeline.lineIndex(at: 25) == nil)
        #expect(timeline.lineIndex(at: .nan) == nil)
        #expect(timeline.lineIndex(at: .infinity) == nil)
        #expect(Timeline(lines: []).lineIndex(at: 0) == nil)
    }

    @Test func lookupGivesNeighboursAndSyllableProgress() {
        let t = Timeline(lines: [line(1, 3, [("Hel", 1, 1.5), ("lo", 2, 3)]), line(5, 6)])
        let before = t.lookup(at: 0)
        #expect(before.current == nil && before.previous == nil && before.next == 0)
        let inside = t.lookup(at: 1.25)
        #expect(inside.current == 0 && inside.next == 1 && inside.syllable == 0)
        #expect(abs(inside.syllableProgress - 0.5) < 1e-12)
        #expect(abs(inside.lineProgress - 0.125) < 1e-12)
        let between = t.lookup(at: 1.75)                  // between syllables: the sung one is complete
        #expect(between.syllable == 0 && between.syllableProgress == 1)
        let gap = t.lookup(at: 4)
        #expect(gap.current == nil && gap.previous == 0 && gap.next == 1)
        let after = t.lookup(at: 7)
        #expect(after.current == nil && after.previous == 1 && after.next == nil)
    }

    @Test func oneTimelinePerPart() {
        let song = Song(metadata: SongMetadata(), parts: [VoicePart(name: "A", lines: [line(1, 2)]),
                                                          VoicePart(name: "B", lines: [line(3, 4), line(5, 6)])],
                        beatClock: nil, source: SongSource(path: "x", format: .lrc))
        let timelines = Timeline.parts(of: song)
        #expect(timelines.map(\.lines.count) == [1, 2])
        #expect(timelines[1].lineIndex(at: 5.5) == 1)
    }

    @Test func unsortedLinesAreOrdered() {
        let t = Timeline(lines: [line(20, 21), line(5, 6), line(10, 11)])
        #expect(t.lines.map(\.start) == [5, 10, 20])
        #expect(t.lineIndex(at: 10.5) == 1)
        #expect(t.startTime == 5 && t.endTime == 21)
    }

    @Test func tempoAndOffsetMapPlaybackToMediaTime() {
        let mapping = TimeMapping(tempo: 1.25, offset: 0.5)
        #expect(mapping.mediaTime(fromPlayback: 8) == 10.5)
        #expect(abs(mapping.playbackTime(fromMedia: mapping.mediaTime(fromPlayback: 3.3)) - 3.3) < 1e-12)
        // At 1.25× the line starting at media 12 s is reached after (12 − 0.5) / 1.25 = 9.2 s.
        #expect(timeline.lineIndex(atPlaybackTime: 9.19, mapping: mapping) == 0)
        #expect(timeline.lineIndex(atPlaybackTime: 9.2, mapping: mapping) == 1)
        #expect(timeline.lineIndex(atPlaybackTime: 7.6, mapping: .identity) == nil)
    }

    /// The definition, written as the obvious linear scan.
    func reference(_ lines: [LyricLine], _ t: Double) -> Int? {
        var found: Int?
        for (i, l) in lines.enumerated() where l.start <= t { found = i }
        guard let found, t < lines[found].end else { return nil }
        return found
    }

    @Test(arguments: 0..<40)
    func binarySearchMatchesLinearScan(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 1)
        let count = Int.random(in: 0...60, using: &rng)
        var lines: [LyricLine] = []
        var t = Double.random(in: -5...5, using: &rng)
        for _ in 0..<count {
            // Gaps, touching lines, equal starts, zero-length and overlapping lines all occur.
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: break
            case 1: t += Double.random(in: 0...0.01, using: &rng)
            default: t += Double.random(in: 0...4, using: &rng)
            }
            let length = [0, Double.random(in: 0...3, using: &rng), Double.random(in: 0...10, using: &rng)].randomElement(using: &rng)!
            lines.append(line(t, t + length))
        }
        let timeline = Timeline(lines: lines.shuffled(using: &rng))
        // Stable sort by start reproduces the order the timeline uses (equal starts keep shuffled order).
        let ordered = timeline.lines
        #expect(ordered.map(\.start) == ordered.map(\.start).sorted())
        var probes = (0..<300).map { _ in Double.random(in: -10...(t + 15), using: &rng) }
        probes += ordered.flatMap { [$0.start, $0.end, $0.start.nextDown, $0.end.nextDown] }
        for p in probes {
            #expect(timeline.lineIndex(at: p) == reference(ordered, p), "seed \(seed) t=\(p)")
            let look = timeline.lookup(at: p)
            #expect(look.current == reference(ordered, p))
            let started = ordered.lastIndex { $0.start <= p }
            #expect(look.next == ordered.firstIndex { $0.start > p })
            if look.current == nil { #expect(look.previous == started) }
        }
    }

    @Test func searchIsLogarithmic() {
        // 200,000 lines × 20,000 lookups: a linear scan (4·10⁹ steps) could not finish in time.
        let n = 200_000
        let lines = (0..<n).map { i in LyricLine(start: Double(i), end: Double(i) + 0.5, syllables: []) }
        let big = Timeline(lines: lines)
        var rng = SeededGenerator(seed: 42)
        let started = Date()
        var hits = 0, wrong = 0
        for _ in 0..<20_000 {
            let t = Double.random(in: 0...Double(n), using: &rng)
            let expected = t - t.rounded(.down) < 0.5 && t < Double(n) ? Int(t) : nil
            let found = big.lineIndex(at: t)
            if found != nil { hits += 1 }
            if found != expected { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(hits > 8_000)
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
