import Dispatch
import EventServer
import Logging
import LyricTimeline
import RoomProtocol
import SongModel

/// Room commands from clients: validation, the change, and what is sent back.
extension Room {
    func perform(_ command: ClientCommand, from client: ClientID, requestId: Int?) throws {
        if command.endsIntermission, !(command.waitsForCalibration && calibratingSinger != nil) { intermissionEnds = nil }
        switch command {
        case .hello(let role, let pin, let name, let token):
            var issued: String?
            if role == .host { issued = try authenticateHost(client, pin: pin, token: token) }
            clients[client]?.role = role
            clients[client]?.hostToken = role == .host ? (issued ?? token) : nil
            clients[client]?.name = name
            sendHello(to: client, hostToken: issued)
            if role == .host { sendStandingFaults(to: client) }
            return
        case .library(let query):
            sendLibraryPage(query, to: client, requestId: requestId)
            return
        case .artists(let letter):
            sendArtists(letter: letter, to: client)
            return
        case .results:
            sendResults(to: client)
            return
        case .signOutOtherHosts:
            signOutOtherHosts(keeping: client)
            return
        case .pauseBetweenSongs(let seconds):
            pauseBetweenSongs = seconds
            if let ends = intermissionEnds { intermissionEnds = min(ends, MonotonicClock.now() + seconds) }
        case .displayScale(let percent):
            displayScale = percent.rounded()
        case .lyricCompanions(let show):
            lyricCompanions = show
        case .vocalReduction(let on):
            settings.vocalReduction = on
            applyVocalReduction()
        case .play:
            // A phone re-calibration the room started by itself does not refuse the host: the
            // song waits for its clicks (seconds), as a song after the pause between songs does.
            let waits = automaticCalibration && calibratingSinger != nil
            if !waits { try requireNoCalibration() }
            if current == nil {
                guard let item = songQueue.popFirst() else { throw RoomCommandError("nothingToPlay", "no song loaded and the queue is empty") }
                try loadSong(item.songId, singer: item.requestedBy)
                broadcastQueue()
            }
            if waits {
                intermissionEnds = MonotonicClock.now()
                logger.info("play: the song starts once singer \((calibratingSinger ?? 0) + 1)'s phone is re-calibrated")
            } else {
                startPlaying()
            }
        case .pause:
            loading?.playWhenLoaded = false
            player.pause()
            if transportState == .playing { transportState = .paused }
        case .stop:
            loading?.playWhenLoaded = false
            player.stop()
            transportState = .stopped
            practiceRun = false
            liveSession?.roomStopped()
            emitLinePositions(force: true)
        case .seek(let position):
            try requireSong()
            seek(to: position)
            notePracticeChange()
        case .seekLine(let part, let line):
            try requireSong()
            guard let current else { throw RoomCommandError("noSong", "no song loaded") }
            guard current.song.parts.indices.contains(part), current.song.parts[part].lines.indices.contains(line) else {
                throw RoomCommandError("badArguments", "no line \(line) in part \(part)")
            }
            seek(to: current.song.parts[part].lines[line].start)
            notePracticeChange()
        case .key(let semitones):
            settings.key = semitones
            player.setKey(semitones: semitones)
            liveSession?.roomSettingsChanged(settings)
            rememberKey()
            notePracticeChange()
        case .tempo(let ratio):
            settings.tempo = ratio
            player.setTempo(ratio)
            liveSession?.roomSettingsChanged(settings)
            rememberKey()
            notePracticeChange()
        case .loop(let range):
            try requireSong()
            let duration = current?.payload.duration ?? 0
            if let range, range.end > duration {
                throw RoomCommandError("badArguments", "loop end \(range.end) s is past the song's end (\(duration) s)")
            }
            settings.loop = range.map { $0.start...$0.end }
            player.setLoop(settings.loop)
            liveSession?.roomSettingsChanged(settings)
            notePracticeChange()
        case .next:
            try requireNoCalibration()
            guard let item = songQueue.popFirst() else { throw RoomCommandError("queueEmpty", "the queue is empty") }
            try loadSong(item.songId, singer: item.requestedBy)
            startPlaying()
            broadcastQueue()
        case .previous:
            try requireNoCalibration()
            if mediaPosition > 3 || history.isEmpty {
                if loading == nil { seek(to: 0) }  // a loading song starts from the top anyway
            } else {
                let previous = history.removeLast()
                if let current {
                    _ = songQueue.append(songId: current.entry.id, title: current.payload.title, artist: current.payload.artist,
                                         requestedBy: currentSinger, duration: current.payload.duration)
                    if let last = songQueue.items.last { songQueue.move(itemId: last.itemId, to: 0) }
                }
                try loadSong(previous, recordHistory: false)
                startPlaying()
                broadcastQueue()
            }
        case .queueAdd(let songId, let requestedBy, let playNow):
            if playNow {
                try requireNoCalibration()
                try loadSong(songId, singer: requestedBy)
                startPlaying()
            } else {
                try enqueue(songId, requestedBy: requestedBy ?? clients[client]?.name, from: client, requestId: requestId)
                return
            }
        case .queueRemove(let itemId):
            guard songQueue.remove(itemId: itemId) else { throw RoomCommandError("badArguments", "no queue item \(itemId)") }
            broadcastQueue()
        case .queueMove(let itemId, let to):
            guard songQueue.move(itemId: itemId, to: to) else { throw RoomCommandError("badArguments", "no queue item \(itemId)") }
            broadcastQueue()
        case .queueClear:
            songQueue.removeAll()
            broadcastQueue()
        case .selectSinger(let singer, let part, let name):
            let partCount = max(1, current?.song.parts.count ?? 2)
            guard part < max(partCount, 2) else { throw RoomCommandError("badArguments", "no part \(part)") }
            try checkSeatChange(singer: singer, name: name, by: client)
            if let index = settings.singers.firstIndex(where: { $0.singer == singer }) {
                settings.singers[index].part = part
                if let name, !name.isEmpty { settings.singers[index].name = name }
                if settings.singers[index].source == "phone" { phonePartChosen?(singer, part) }
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
            notePracticeChange()
        case .singerDifficulty(let singer, let level):
            guard let index = settings.singers.firstIndex(where: { $0.singer == singer }) else {
                throw RoomCommandError("badArguments", "no singer \(singer)")
            }
            guard settings.singers[index].difficulty != level else { break }
            settings.singers[index].difficulty = level
            liveSession?.roomSettingsChanged(settings)
            notePracticeChange()
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

    /// A guest changes only a seat that is free or theirs (taking a free microphone seat makes it
    /// theirs); the host changes any. A name is one singer's at a time, whoever asks.
    func checkSeatChange(singer: Int, name: String?, by client: ClientID) throws {
        let isHost = clients[client]?.role == .host
        if !isHost, seatHolders[singer].map({ $0 != client }) ?? isPhoneSeat(singer) {
            let seat = settings.singers.first { $0.singer == singer }
            throw RoomCommandError("seatTaken", "singer \(singer + 1) is \(seat?.name ?? "someone else")'s seat; only they or the host can change it")
        }
        if let key = SongQueue.singerKey(name),
           let other = settings.singers.first(where: { $0.singer != singer && SongQueue.singerKey($0.name) == key }) {
            throw RoomCommandError("nameTaken", "\(other.name) is already singing as singer \(other.singer + 1); pick another name")
        }
        if !isHost, !isPhoneSeat(singer) { seatHolders[singer] = client }
    }

    /// Checks a host `hello`: a valid session token, else the PIN — at most as often as the
    /// address's back-off allows. Returns the new session token after a right PIN.
    func authenticateHost(_ client: ClientID, pin: String?, token: String?) throws -> String? {
        if options.secretsOnlyOverTLS, clients[client]?.channelIsPrivate != true {
            // Refused before the PIN or token is looked at: over plain http both are readable by
            // anyone on the network, and a token issued here would work from any address.
            let place = options.secureRemoteURL.map { "open \($0)" } ?? "open the room's https address (the join QR code)"
            throw RoomCommandError("secureConnectionRequired",
                                   "the host controls only open over https, where the PIN cannot be overheard: \(place)")
        }
        let now = MonotonicClock.now()
        if hostSessions.isValid(token, now: now) { return nil }
        guard let pin else {
            throw RoomCommandError("badToken", "the host session has expired or is unknown; enter the room PIN")
        }
        let address = clients[client]?.address ?? "?"
        if case .wait(let seconds) = pinAttempts.check(address, now: now) {
            throw RoomCommandError("pinLocked", "too many wrong PINs from \(address); try again in \(Int(seconds.rounded(.up))) s")
        }
        guard options.pin.matches(pin) else {
            let wait = pinAttempts.recordFailure(address, now: now)
            let failures = pinAttempts.failures(of: address)
            if case .log(let suppressed) = logThrottle.admit("pin", now: now) {
                let note = suppressed > 0 ? " (\(suppressed) more wrong PINs not logged)" : ""
                logger.warning("wrong room PIN from \(address) (\(failures) in a row; next try allowed in \(Int(wait.rounded(.up))) s)\(note)")
            }
            throw RoomCommandError("badPin", "wrong room PIN (it is printed where the server was started)")
        }
        pinAttempts.recordSuccess(address)
        logger.info("host session opened from \(address)")
        return hostSessions.issue(now: now)
    }

    /// Adds a guest's or host's request at its fair place (round-robin by singer; see
    /// `SongQueue`) and confirms it to the client who asked (`queued`). The same song asked for
    /// again by the same singer is folded into the earlier request (confirmed, not added). The
    /// queue and each guest address have a cap.
    func enqueue(_ songId: String, requestedBy: String?, from client: ClientID, requestId: Int?) throws {
        let song = try queueableSong(songId)
        let singer = requestedBy.map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).prefix(40)) }
            .flatMap { $0.isEmpty ? nil : $0 }
        if let index = songQueue.index(of: song.id, singer: singer) {
            let item = queueWithStartTimes()[index]
            transport?.send(.queued(QueuedPayload(item: item, position: index + 1, folded: true, id: requestId)), to: client)
            return
        }
        guard songQueue.items.count < options.maxQueue else {
            throw RoomCommandError("queueFull", "the queue is full (\(options.maxQueue) songs); wait until some have been sung")
        }
        let session = clients[client]
        let owner = session?.address ?? "?"
        if session?.role != .host {
            let own = singer.map { songQueue.pending(singer: $0) } ?? songQueue.pending(of: owner, unnamedOnly: true)
            if own >= options.maxQueuedPerGuest {
                throw RoomCommandError("tooManyQueued", "\(singer ?? "you") already \(singer == nil ? "have" : "has") \(options.maxQueuedPerGuest) songs waiting; wait until one has been sung")
            }
            if songQueue.pending(of: owner) >= options.maxQueuedPerAddress {
                throw RoomCommandError("tooManyQueued", "\(options.maxQueuedPerAddress) songs are already waiting from your network address; wait until one has been sung")
            }
        }
        let (_, index) = songQueue.insertFairly(songId: song.id, title: song.title, artist: song.artist, requestedBy: singer,
                                                owner: session?.role == .host ? nil : owner, duration: song.duration)
        let item = queueWithStartTimes()[index]
        transport?.send(.queued(QueuedPayload(item: item, position: index + 1, folded: false, id: requestId)), to: client)
        broadcastQueue()
    }

    /// A song of the index that can be queued (read without error, not too large).
    func queueableSong(_ songId: String) throws -> IndexedSong {
        guard let song = songIndex.song(id: songId) else {
            if let read = libraryIndexing {
                throw RoomCommandError("libraryLoading", "the song library is still being read (\(read) songs so far); try again in a moment")
            }
            throw RoomCommandError("unknownSong", "no song \"\(songId)\" in the library")
        }
        if let error = song.error {
            throw RoomCommandError("unreadableSong", "song \"\(songId)\" cannot be played: \(songProblems.forHosts(error))",
                                   guestMessage: SongProblems.forGuests(title: song.title))
        }
        return song
    }

    /// A seek, loop, key, tempo or difficulty change ends the scored run and starts a practice
    /// run from here (see `LiveRoomSession`); one that starts before the first line is complete.
    func notePracticeChange() {
        guard let current else { return }
        let firstLine = current.song.parts.compactMap { $0.lines.first?.start }.min() ?? 0
        practiceRun = settings.loop != nil || mediaPosition > firstLine
    }

    /// The key and tempo the current singer chose for this song, for the next time they sing it.
    func rememberKey() {
        guard let singer = SongQueue.singerKey(currentSinger), let songId = current?.entry.id else { return }
        keyMemory.remember(singer: singer, songId: songId, key: settings.key, tempo: settings.tempo)
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
            endIntermissionWhenDue()  // a song held by the calibration starts now
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
        guard let entry = catalog.entry(id: songId) else {
            throw RoomCommandError("unknownSong", "no song \"\(songId)\" in the library")
        }
        let guestMessage = SongProblems.forGuests(title: SongPayloadBuilder.summary(for: entry).title)
        guard entry.song != nil else {
            throw RoomCommandError("unreadableSong", "song \"\(songId)\" cannot be read: \(songProblems.forHosts(entry.error ?? "unknown error"))",
                                   guestMessage: guestMessage)
        }
        if let problem = SongPayloadBuilder.sizeProblem(of: entry) {
            throw RoomCommandError("songTooLarge", "song \"\(songId)\": \(songProblems.forHosts(problem))", guestMessage: guestMessage)
        }
        return entry
    }
}
