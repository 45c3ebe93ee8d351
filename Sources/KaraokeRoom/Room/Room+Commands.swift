import Dispatch
import EventServer
import Logging
import LyricTimeline
import SongModel

/// Room commands from clients: validation, the change, and what is sent back.
extension Room {
    func perform(_ command: ClientCommand, from client: ClientID, requestId: Int?) throws {
        switch command {
        case .hello(let role, let pin, let name):
            if role == .host && !options.pin.matches(pin) {
                throw RoomCommandError("badPin", "wrong room PIN (it is printed where the server was started)")
            }
            clients[client]?.role = role
            clients[client]?.name = name
            sendHello(to: client)
            return
        case .library:
            transport?.send(.library(LibraryPayload(songs: entries.map(SongPayloadBuilder.summary(for:)))), to: client)
            return
        case .results:
            sendResults(to: client)
            return
        case .play:
            try requireNoCalibration()
            if current == nil {
                guard let item = songQueue.popFirst() else { throw RoomCommandError("nothingToPlay", "no song loaded and the queue is empty") }
                try loadSong(item.songId)
            }
            startPlaying()
        case .pause:
            loading?.playWhenLoaded = false
            player.pause()
            if transportState == .playing { transportState = .paused }
        case .stop:
            loading?.playWhenLoaded = false
            player.stop()
            transportState = .stopped
            liveSession?.roomStopped()
            emitLinePositions(force: true)
        case .seek(let position):
            try requireSong()
            seek(to: position)
        case .seekLine(let part, let line):
            try requireSong()
            guard let current else { throw RoomCommandError("noSong", "no song loaded") }
            guard current.song.parts.indices.contains(part), current.song.parts[part].lines.indices.contains(line) else {
                throw RoomCommandError("badArguments", "no line \(line) in part \(part)")
            }
            seek(to: current.song.parts[part].lines[line].start)
        case .key(let semitones):
            settings.key = semitones
            player.setKey(semitones: semitones)
            liveSession?.roomSettingsChanged(settings)
        case .tempo(let ratio):
            settings.tempo = ratio
            player.setTempo(ratio)
            liveSession?.roomSettingsChanged(settings)
        case .loop(let range):
            try requireSong()
            let duration = current?.payload.duration ?? 0
            if let range, range.end > duration {
                throw RoomCommandError("badArguments", "loop end \(range.end) s is past the song's end (\(duration) s)")
            }
            settings.loop = range.map { $0.start...$0.end }
            player.setLoop(settings.loop)
            liveSession?.roomSettingsChanged(settings)
        case .next:
            try requireNoCalibration()
            guard let item = songQueue.popFirst() else { throw RoomCommandError("queueEmpty", "the queue is empty") }
            try loadSong(item.songId)
            startPlaying()
            broadcastQueue()
        case .previous:
            try requireNoCalibration()
            if mediaPosition > 3 || history.isEmpty {
                if loading == nil { seek(to: 0) }  // a loading song starts from the top anyway
            } else {
                let previous = history.removeLast()
                if let current {
                    _ = songQueue.append(songId: current.entry.id, title: current.payload.title, artist: current.payload.artist, requestedBy: nil)
                    if let last = songQueue.items.last { songQueue.move(itemId: last.itemId, to: 0) }
                }
                try loadSong(previous, recordHistory: false)
                startPlaying()
                broadcastQueue()
            }
        case .queueAdd(let songId, let requestedBy, let playNow):
            let entry = try playableEntry(songId)
            if playNow {
                try requireNoCalibration()
                try loadSong(entry.id)
                startPlaying()
            } else {
                _ = songQueue.append(songId: entry.id, title: SongPayloadBuilder.summary(for: entry).title,
                                     artist: entry.song?.metadata.artist ?? "", requestedBy: requestedBy ?? clients[client]?.name)
                broadcastQueue()
            }
        case .queueRemove(let itemId):
            guard songQueue.remove(itemId: itemId) else { throw RoomCommandError("badArguments", "no queue item \(itemId)") }
            broadcastQueue()
        case .queueMove(let itemId, let to):
            guard songQueue.move(itemId: itemId, to: to) else { throw RoomCommandError("badArguments", "no queue item \(itemId)") }
            broadcastQueue()
        case .selectSinger(let singer, let part, let name):
            let partCount = max(1, current?.song.parts.count ?? 2)
            guard part < max(partCount, 2) else { throw RoomCommandError("badArguments", "no part \(part)") }
            if let index = settings.singers.firstIndex(where: { $0.singer == singer }) {
                settings.singers[index].part = part
                if let name, !name.isEmpty { settings.singers[index].name = name }
            } else {
                settings.singers.append(SingerPayload(singer: singer, name: name ?? "Singer \(singer + 1)", part: part, micDelayMs: 0))
                settings.singers.sort { $0.singer < $1.singer }
            }
            liveSession?.roomSettingsChanged(settings)
        case .calibrate(let singer):
            guard let liveSession else {
                throw RoomCommandError("unavailable", "microphone calibration needs audio (the server runs with --no-audio)")
            }
            guard liveSession.microphone(singer: singer, seat: nil) != nil else {
                throw RoomCommandError("badArguments", "singer \(singer + 1) has no microphone to calibrate")
            }
            if transportState == .playing || loading?.playWhenLoaded == true {
                throw RoomCommandError("failed", "stop playback before calibrating: the test clicks must be heard alone")
            }
            try requireNoCalibration()
            logger.info("calibrating the microphone of singer \(singer + 1)")
            // The clicks take seconds; the outcome comes back off the room queue.
            calibratingSinger = singer
            do {
                try liveSession.calibrate(singer: singer) { [weak self] failure in
                    self?.calibrationFinished(singer: singer, failure, for: client, requestId: requestId)
                }
            } catch {
                calibratingSinger = nil
                throw error
            }
            broadcastState()
            return
        case .difficulty(let level):
            settings.difficulty = level
            liveSession?.roomSettingsChanged(settings)
        case .micDelay(let singer, let milliseconds):
            guard let index = settings.singers.firstIndex(where: { $0.singer == singer }) else {
                throw RoomCommandError("badArguments", "no singer \(singer)")
            }
            settings.singers[index].micDelayMs = milliseconds
            liveSession?.roomSettingsChanged(settings)
        case .monitor(let singer, let on):
            guard let monitoring else {
                throw RoomCommandError("unavailable", "mic monitoring needs audio and a microphone (the server runs with --no-audio or --no-mic, or no microphone opened)")
            }
            // The sound server answers off the room queue; the state follows when it has.
            try monitoring.set(singer: singer, on: on) { [weak self] failure in
                self?.monitoringSwitched(failure, for: client, requestId: requestId)
            }
            return
        }
        broadcastState()
    }

    /// A monitor switch finished: everyone sees the state, the client who asked any failure.
    func monitoringSwitched(_ failure: RoomCommandError?, for client: ClientID, requestId: Int?) {
        queue.async { [self] in
            if let failure { sendError(to: client, code: failure.code, message: failure.message, command: "monitor", id: requestId) }
            broadcastState()
        }
    }

    /// A calibration finished: everyone sees the state (the singer's delay now `calibrated`),
    /// the client who asked any failure.
    func calibrationFinished(singer: Int, _ failure: (any Error)?, for client: ClientID, requestId: Int?) {
        queue.async { [self] in
            calibratingSinger = nil
            if let failure {
                logger.warning("calibration of singer \(singer + 1): \(failure)")
                sendError(to: client, code: "failed", message: "calibration of singer \(singer + 1): \(failure)",
                          command: "calibrate", id: requestId)
            } else if let delay = liveSession?.microphone(singer: singer, seat: nil)?.micDelay.seconds {
                logger.info("calibrated the microphone of singer \(singer + 1): mic delay \(delay.stateMilliseconds) ms")
            }
            broadcastState()
        }
    }

    /// A microphone (or the speakers, or the sound server) went away or came back under a
    /// switched-on monitor: everyone sees whether it is heard.
    func monitoringChangedByItself(source: String, status: MonitorStatus) {
        queue.async { [self] in
            switch status {
            case .waiting: logger.warning("mic monitoring of \(source): waiting for the device to come back")
            case .heard: logger.info("mic monitoring of \(source): heard again")
            case .off: break
            }
            broadcastState()
        }
    }

    /// Playback would spoil a calibration in progress (and its clicks the song).
    func requireNoCalibration() throws {
        guard let singer = calibratingSinger else { return }
        throw RoomCommandError("calibrating", "singer \(singer + 1)'s microphone is being calibrated; try again in a few seconds")
    }

    func requireSong() throws {
        if current == nil { throw RoomCommandError("noSong", "no song loaded") }
        if let loading { throw RoomCommandError("loading", "\"\(loading.songId)\" is still loading; try again when it has loaded") }
    }

    func playableEntry(_ songId: String) throws -> CatalogEntry {
        guard let entry = entries.first(where: { $0.id == songId }) else {
            throw RoomCommandError("unknownSong", "no song \"\(songId)\" in the library")
        }
        guard entry.song != nil else {
            throw RoomCommandError("unreadableSong", "song \"\(songId)\" cannot be read: \(entry.error ?? "unknown error")")
        }
        return entry
    }
}
