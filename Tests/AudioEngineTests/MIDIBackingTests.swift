import AudioEngine
import AudioFiles
import Foundation
import Testing
import TestSupport

/// A MIDI karaoke song's music: the file synthesised with FluidSynth and the installed General
/// MIDI soundfont (scripts/setup installs timgm6mb-soundfont), cached for replays; without a
/// soundfont the song plays silent with a warning.
@Suite(.serialized) struct MIDIBackingTests {
    static let soundFont = SoundFontLocator.find()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("midi-backing-\(UUID().uuidString)")

    func writeFixture() throws -> (path: String, fixture: MIDIFixture) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let fixture = MIDIFixture.tune()
        let path = scratch.appendingPathComponent("tune.kar").path
        try Data(fixture.bytes()).write(to: URL(fileURLWithPath: path))
        return (path, fixture)
    }

    static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))).squareRoot()
    }

    @Test(.enabled(if: soundFont != nil, "no General MIDI soundfont installed (scripts/setup installs timgm6mb-soundfont)"))
    func aKaraokeFileRendersMusicOfTheSongsLength() throws {
        let (path, fixture) = try writeFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let rate = 48_000.0
        let audio = try MIDISynthesizer.render(path: path, sampleRate: rate, soundFont: Self.soundFont)
        #expect(audio.channels == 2 && audio.sampleRate == rate)
        // The file's last note (the band's last chord) ends at the fixture's own tempo arithmetic;
        // then the release rings out (3 s rendered, cut where it has faded).
        let end = Self.lastNoteEnd(fixture)
        #expect(audio.duration >= end && audio.duration <= end + 3.5, "rendered \(audio.duration) s, last note ends at \(end) s")
        // Music throughout: every second from the first beat to the last note is sounding.
        let mono = audio.mono()
        for second in 0..<Int(end) {
            let level = 20 * log10(max(1e-9, Self.rms(mono[(second * Int(rate))..<((second + 1) * Int(rate))])))
            #expect(level > -40, "second \(second): \(level) dBFS")
        }
        // The melody is in it: around the first sung note (C4 = 261.6 Hz) that pitch is strong.
        let first = fixture.seconds(atQuarter: fixture.melody[0].quarter)
        let window = mono[Int((first + 0.05) * rate)..<Int((first + 0.25) * rate)]
        let atC4 = Self.power(window, hz: 261.6, rate: rate), offC4 = Self.power(window, hz: 277.2, rate: rate)
        #expect(atC4 > 4 * offC4, "C4 \(atC4) vs C#4 \(offC4)")
        print(String(format: "MIDI fixture rendered: %.2f s (last note ends %.2f s), peak %.2f", audio.duration, end,
                     audio.samples.map { abs($0) }.max() ?? 0))
    }

    @Test(.enabled(if: soundFont != nil, "no General MIDI soundfont installed (scripts/setup installs timgm6mb-soundfont)"))
    func theTrackSourceIsRenderedOnceAndCached() throws {
        let (path, fixture) = try writeFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let rate = 44_100.0
        let (track, warnings) = try TrackSource.prepare(backingTrack: path, duration: 5, sampleRate: rate, soundFont: Self.soundFont)
        #expect(warnings.isEmpty)
        #expect(track.audioFrames > Int(Self.lastNoteEnd(fixture) * rate))
        #expect(MIDIRenderCache.shared.holds(path: path, sampleRate: rate))
        let clock = ContinuousClock()
        var again: TrackSource?
        let elapsed = try clock.measure { again = try TrackSource.load(path: path, sampleRate: rate, soundFont: Self.soundFont) }
        #expect(again?.audioFrames == track.audioFrames)
        print("cached MIDI backing loaded again in \(elapsed)")
    }

    @Test func withoutASoundFontTheSongPlaysSilentWithAWarning() throws {
        let (path, _) = try writeFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        #expect(SoundFontLocator.find(environment: [SoundFontLocator.environmentKey: scratch.path + "/none.sf2"]) == nil)
        let (track, warnings) = try TrackSource.prepare(backingTrack: path, duration: 30, sampleRate: 48_000, soundFont: nil)
        #expect(track.audioFrames == 0 && abs(track.duration - 30) < 0.001, "lyrics-only: silence of the song's length")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(path) == true && warnings.first?.contains("timgm6mb-soundfont") == true, "\(warnings)")
    }

    /// Seconds at which the fixture's last note ends: the melody's, or the band's last chord
    /// (chords every two quarters from 0 while the melody lasts, each two quarters long).
    static func lastNoteEnd(_ fixture: MIDIFixture) -> Double {
        let last = fixture.melody.last!
        let melodyEnd = last.quarter + last.length
        var band = 0.0
        while band < melodyEnd { band += 2 }
        return fixture.seconds(atQuarter: max(melodyEnd, fixture.accompaniment ? band : 0))
    }

    /// Goertzel power at `hz`.
    static func power(_ x: ArraySlice<Float>, hz: Double, rate: Double) -> Double {
        let w = 2 * Double.pi * hz / rate, c = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for v in x { let s = Double(v) + c * s1 - s2; s2 = s1; s1 = s }
        return s1 * s1 + s2 * s2 - c * s1 * s2
    }
}
