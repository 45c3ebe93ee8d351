import Dispatch
import EventServer
import Logging
import LyricTimeline
import RoomProtocol
import SongModel

/// What the room sends: state, queue, hello, errors, results.
extension Room {
    func statePayload() -> StatePayload {
        var state = StatePayload(
            transport: transportState, position: mediaPosition, duration: current?.payload.duration ?? 0,
            songId: current?.entry.id, key: settings.key, tempo: settings.tempo,
            loop: settings.loop.map { LoopPayload(start: $0.lowerBound, end: $0.upperBound) },
            queue: songQueue.items, difficulty: settings.difficulty,
            singers: reportedSingers(), audio: options.audio,
            loading: loading != nil, playWhenLoaded: loading?.playWhenLoaded ?? false,
            outputLatencyMs: player.outputLatency?.stateMilliseconds, calibratingSinger: calibratingSinger)
        state.queue = queueWithStartTimes()
        state.practice = current == nil ? nil : practiceRun
        state.libraryVersion = libraryVersion
        state.libraryIndexing = libraryIndexing
        state.pauseBetweenSongs = pauseBetweenSongs
        state.displayScale = displayScale
        state.lyricCompanions = lyricCompanions
        state.vocalReduction = settings.vocalReduction
        state.vocalReductionActive = vocalReductionApplies
        state.intermission = intermissionPayload()
        state.singerName = currentSinger
        return state
    }

    /// The queue with each song's estimated start: what is left of the pause before the current
    /// song (if the room is waiting) and of the song itself, then the songs before it, each at the
    /// room's tempo, with the pause between songs and a changeover after each.
    func queueWithStartTimes() -> [QueueItemPayload] {
        let tempo = max(settings.tempo, 0.1)
        let between = pauseBetweenSongs + options.changeoverSeconds
        let waiting = intermissionEnds.map { max(0, $0 - MonotonicClock.now()) } ?? 0
        var clock = current.map { waiting + max(0, $0.payload.duration - mediaPosition) / tempo + between } ?? 0
        var known = true
        return songQueue.items.map { item in
            var item = item
            item.startsIn = known ? clock.rounded() : nil
            if let duration = item.duration { clock += duration / tempo + between } else { known = false }
            return item
        }
    }

    /// The seats with what monitoring and live scoring know about each singer's microphone.
    func reportedSingers() -> [SingerPayload] {
        let singers = monitoring?.annotated(settings.singers) ?? settings.singers
        guard let liveSession else { return singers }
        return singers.map { $0.reporting(liveSession.microphone(singer: $0.singer, seat: $0)) }
    }

    func broadcastState() { broadcast(statePayload()) }

    /// The room's song changed: everyone gets it (or null) once.
    func broadcastSong(_ payload: SongPayload?) {
        songGeneration += 1
        for id in clients.keys { clients[id]?.songGeneration = songGeneration }
        transport?.broadcast(.song(SongChangePayload(song: payload)))
    }

    func broadcast(_ state: StatePayload) {
        transport?.broadcast(.state(stateForBroadcast(state)))
    }

    /// Notes `state` as the one everyone has now (when, and the latencies it showed).
    func stateForBroadcast(_ state: StatePayload) -> StatePayload {
        lastStateSent = MonotonicClock.now()
        latenciesSent = LatencyReadings(state)
        return state
    }

    /// Sends the queue to everyone, at most once per `queueCoalescing` seconds: a burst of
    /// edits costs one message per client, not one per edit.
    func broadcastQueue() {
        guard !queueBroadcastPending else { return }
        queueBroadcastPending = true
        queue.asyncAfter(deadline: .now() + options.queueCoalescing) { [weak self] in
            guard let self else { return }
            queueBroadcastPending = false
            transport?.broadcast(.queue(QueuePayload(queue: queueWithStartTimes())))
        }
    }

    /// The full room to one client. The song's timeline goes only to a client that does not
    /// have it yet (a role change keeps it: `songUnchanged`).
    func sendHello(to client: ClientID, hostToken: String? = nil) {
        guard let session = clients[client] else { return }
        let hasSong = session.songGeneration == songGeneration
        var hello = HelloPayload(
            clientId: client, role: session.role, room: options.name, song: hasSong ? nil : current?.payload,
            state: statePayload(), results: results)
        hello.librarySize = songIndex.count
        if hasSong { hello.songUnchanged = true }
        hello.certificate = options.certificate
        if options.secretsOnlyOverTLS, !session.channelIsPrivate {
            hello.secretsNeedTLS = true
            hello.secureRemote = options.secureRemoteURL
        }
        if let hostToken {
            hello.hostToken = hostToken
            hello.hostTokenExpiresIn = hostSessions.lifetime
        }
        clients[client]?.songGeneration = songGeneration
        transport?.send(.hello(hello), to: client)
        if let current {
            let position = mediaPosition
            for (partIndex, timeline) in current.timelines.enumerated() {
                transport?.send(.line(Self.lineEvent(part: partIndex, timeline.lookup(at: position), at: position)), to: client)
            }
        }
    }

    func sendError(to client: ClientID, code: String, message: String, command: String?, id: Int?) {
        transport?.send(.error(ErrorPayload(code: code, message: message, command: command, id: id)), to: client)
    }

    /// Sends this song's results (to one client, or everyone when nil), with the stored boards.
    func sendResults(to client: ClientID?) {
        let payload = ResultsPayload(songId: current?.entry.id, lines: results,
                                     totals: totals.values.sorted { $0.singer < $1.singer }, leaderboard: [])
        withStoredBoards(payload) { room, complete in
            if let client { room.transport?.send(.results(complete), to: client) } else { room.transport?.broadcast(.results(complete)) }
        }
    }

    /// Adds the stored leaderboard and recent runs to `payload` and hands it to `deliver` on the
    /// room queue. They are read off the queue, so a slow database never holds up the room; a
    /// read that fails leaves them empty with `storedUnreadable` set and tells the hosts
    /// (`store-read-failed`), so an unreadable board is not shown as "no saved results".
    func withStoredBoards(_ payload: ResultsPayload, deliver: @escaping @Sendable (Room, ResultsPayload) -> Void) {
        guard let leaderboard else {
            deliver(self, payload)
            return
        }
        Task { [weak self] in
            var complete = payload
            do {
                complete.leaderboard = try await leaderboard.leaderboard(songId: payload.songId)
                complete.runs = try await leaderboard.recentRuns()
            } catch {
                complete.leaderboard = []
                complete.runs = nil
                complete.storedUnreadable = "The saved scores can't be read right now."
                self?.logger.error("scores: the leaderboard could not be read: \(error)")
                self?.reportToHosts(code: "store-read-failed",
                                    message: "The saved scores could not be read from the score database: \(error)")
            }
            guard let room = self else { return }
            let finished = complete
            room.queue.async { deliver(room, finished) }
        }
    }
}
