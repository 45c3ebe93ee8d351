import Foundation
@testable import SongFormats
import Testing
import TestSupport

/// The library lists songs by probing audio headers without decoding; a truncated or damaged
/// file must give "unknown" (nil), never a crash.
@Suite struct AudioDurationProbeTests {
    /// A 16-bit stereo 44.1 kHz WAV header whose data chunk claims `seconds` of audio.
    static func wavHeader(seconds: Double) -> [UInt8] {
        func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        let byteRate: UInt32 = 44_100 * 4
        let dataSize = UInt32(seconds * Double(byteRate))
        return Array("RIFF".utf8) + le(36 + dataSize) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + le(16) + le16(1) + le16(2) + le(44_100) + le(byteRate) + le16(4) + le16(16)
            + Array("data".utf8) + le(dataSize)
    }

    func probe(_ bytes: [UInt8]) throws -> Double? {
        let path = NSTemporaryDirectory() + "probe-\(UUID().uuidString).bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return AudioDurationProbe.seconds(path: path)
    }

    @Test func wavHeaderGivesItsDuration() throws {
        let seconds = try #require(try probe(Self.wavHeader(seconds: 12.5)))
        #expect(abs(seconds - 12.5) < 0.001)
    }

    @Test func everyTruncationOfEveryHeaderIsUnknownOrADuration() throws {
        let demo = try [UInt8](Data(contentsOf: TestPaths.songs.appendingPathComponent("demo/backing.ogg")).prefix(4096))
        var flac = Array("fLaC".utf8) + [0, 0, 0, 34] + [UInt8](repeating: 0x11, count: 34)
        flac[18] = 0xFF
        for header in [Self.wavHeader(seconds: 3), demo, flac] {
            for length in 0...header.count {
                _ = try probe(Array(header.prefix(length)))
            }
        }
    }

    @Test func randomlyDamagedHeadersNeverCrash() throws {
        let demo = try [UInt8](Data(contentsOf: TestPaths.songs.appendingPathComponent("demo/backing.ogg")).prefix(4096))
        var random = SystemRandomNumberGenerator()
        for header in [Self.wavHeader(seconds: 3), demo] {
            for _ in 0..<200 {
                var damaged = header
                for _ in 0..<4 { damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
                _ = try probe(damaged)
            }
        }
    }

    /// A MIDI/KAR song has no recording: its listed length is when its music ends (the tempo
    /// change counted), not when its lyrics do.
    @Test func aMIDISongLastsUntilItsLastEvent() throws {
        var fixture = MIDIFixture.tune()
        fixture.tempos = [(0, 100), (8, 120)]
        fixture.accompaniment = false
        let last = try #require(fixture.melody.last)
        let sungEnd = last.quarter + last.length
        #expect(abs((try probe(fixture.bytes()) ?? 0) - fixture.seconds(atQuarter: sungEnd)) < 0.001)
        // The band's last chord (every two quarters while the melody lasts) ends after the singing.
        fixture.accompaniment = true
        let lastChord = (sungEnd / 2).rounded(.up) * 2 - 2
        #expect(abs((try probe(fixture.bytes()) ?? 0) - fixture.seconds(atQuarter: lastChord + 2)) < 0.001)
        for length in [0, 10, 14, 30, 60] { _ = try probe(Array(fixture.bytes().prefix(length))) }
    }
}
