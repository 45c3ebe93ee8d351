import AudioEngine
import AudioFiles
import EventServer
import Foundation
import KaraokeRoom
import RoomProtocol
import TestSupport
import Testing

/// A MIDI karaoke song in the room on the real `PlaybackEngine`: the library makes the `.kar`
/// its own backing, the loader synthesises it, and the speakers are fed music (the bleed
/// reference, which holds exactly what was fed, is not silent).
extension PulseAudioTests {
@Suite struct MIDISongPulseTests {
    @Test(.enabled(if: SoundFontLocator.find() != nil, "no General MIDI soundfont installed (scripts/setup installs timgm6mb-soundfont)"))
    func aKarSongPlaysWithMusic() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midi-room-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dir = folder.appendingPathComponent("songs/tune")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(MIDIFixture.tune().bytes()).write(to: dir.appendingPathComponent("tune.kar"))

        let engine = try PlaybackEngine(configuration: .init(device: "speaker"))
        defer { engine.close() }
        let room = Room(player: engine, catalog: try DirectorySongCatalog(directory: folder.appendingPathComponent("songs").path),
                        options: Room.Options(pin: RoomPin("1234")!, audio: true))
        let transport = LiveRoomSessionEndToEndTests.RecordingTransport()
        room.start(transport: transport)
        defer { room.shutdown() }

        try room.load(songId: "tune", autoplay: true)
        #expect(engine.isPlaying)
        #expect(engine.duration > 15, "the synthesised backing lasts the song: \(engine.duration) s")
        #expect(waitUntil(timeout: 5) { engine.position > 2.5 }, "position stuck at \(engine.position)")
        // The last two seconds fed to the speakers (the tap holds exactly what was written).
        let tap = engine.renderedOutput
        var fed = [Float](repeating: 0, count: Int(2 * tap.sampleRate))
        fed.withUnsafeMutableBufferPointer { _ = tap.copy(from: tap.endFrame - Int64($0.count), count: $0.count, into: $0.baseAddress!) }
        let rms = (fed.reduce(0) { $0 + Double($1) * Double($1) } / Double(fed.count)).squareRoot()
        #expect(20 * log10(max(rms, 1e-9)) > -35, "music fed to the speakers: \(20 * log10(max(rms, 1e-9))) dBFS")
        let warnings = transport.events.all.compactMap { event -> ErrorPayload? in
            if case .error(let e) = event { e } else { nil }
        }
        #expect(warnings.isEmpty, "\(warnings)")
    }
}
}
