import ArgumentParser
import AudioEngine
import EventServer
import Foundation
import KaraokeRoom
import Logging
import RoomProtocol
import ScoreStore

/// How `serve` splits its microphones into singers (`--mic-channels`).
enum MicChannels: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// Every channel of a source is its own singer (a stereo interface = two singers).
    case split
    /// Each source is one singer (channels mixed down).
    case mono
}

/// Opens the microphones and builds the room's `LiveRoomSession` on the playback engine's clock.
/// Singer i is microphone i: sources in `--mic` order, and with `split` each source's channels in order.
enum LiveScoringFactory {
    struct Live {
        let session: LiveRoomSession
        let captures: [CaptureEngine]
        /// Each PulseAudio singer's source (nil = the default source), singer i at index i.
        let sources: [String?]
        /// The phone singer seats (singers after the PulseAudio ones); the server's delegate.
        let phones: PhoneSeats

        func close() {
            phones.close()
            session.close()
            captures.forEach { $0.close() }
        }
    }

    /// - Parameter pulse: false for `--no-mic`: phone singers only, no PulseAudio microphone opened.
    static func make(sources: [String], channels: MicChannels, pulse: Bool = true, engine: PlaybackEngine, room: Room,
                     server: EventServer, store: (any ScoreStore)?, options: LiveRoomSession.Options,
                     logger: Logger) throws -> Live {
        var captures: [CaptureEngine] = []
        var microphones: [LiveMicrophone] = []
        let names: [String?] = !pulse ? [] : sources.isEmpty ? [nil] : sources.map { $0 }
        for source in names {
            let layout: CaptureEngine.Layout = channels == .split ? .channelsAsSingers : .mono
            let capture: CaptureEngine
            do {
                capture = try CaptureEngine(configuration: .init(source: source, layout: layout))
            } catch {
                captures.forEach { $0.close() }
                throw PlaybackError(path: nil, message: "cannot open microphone \(source ?? "(default source)"): \(error)")
            }
            capture.onDeviceEvent = { event in
                logger.warning("microphone \(source ?? "(default)"): \(event)")
                room.publishDevice(DevicePayload(event))
            }
            captures.append(capture)
            microphones += LiveMicrophone.all(of: capture, source: source)
        }
        let phones = PhoneSeats(room: room, firstSinger: microphones.count) { [weak server] message, client in server?.send(message, to: client) }
        let pulseSources = microphones.map(\.source)
        microphones += phones.slots.map { LiveMicrophone(phone: $0) }
        let session = LiveRoomSession(microphones: microphones, clock: engine.clock, backing: engine.renderedOutput, sink: room, store: store, options: options)
        phones.attach(session: session)
        return Live(session: session, captures: captures, sources: pulseSources, phones: phones)
    }
}
