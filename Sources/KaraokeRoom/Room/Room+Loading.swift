import Dispatch
import Logging
import LyricTimeline
import RoomProtocol
import SongModel

/// Choosing a song: its audio loads off the queue; the newest load wins.
extension Room {
    /// Makes `songId` the current song at once (lyrics, `state.loading`) and has the loader
    /// prepare its audio; `installLoaded` swaps it in. What played before stops now; a load
    /// still pending is superseded (its track will be dropped).
    /// `singer`: who sings it (a queue request's name): their remembered key and tempo for it apply.
    func loadSong(_ songId: String, recordHistory: Bool = true, singer: String? = nil) throws {
        let entry = try playableEntry(songId)
        guard let song = entry.song else { return }
        var payload = SongPayloadBuilder.payload(for: entry, song: song)
        payload.video = entry.videoPath.flatMap { path in
            transport?.publishMedia(path: path).map { BackgroundVideoPayload(url: $0, gap: song.metadata.videoGapSeconds ?? 0) }
        }
        payload.cdg = entry.cdgPath.flatMap { transport?.publishMedia(path: $0) }
        if payload.video == nil { payload.background = entry.backgroundPath.flatMap { transport?.publishMedia(path: $0) } }
        if loading == nil, current != nil {
            if recordHistory, let previous = current?.entry.id { history.append(previous) }
            player.stop()
            liveSession?.roomStopped()
        }
        loading?.resolve(nil)
        let generation = loader.load(player, backingTrack: entry.backingTrackPath, duration: payload.duration) { [weak self] generation, result in
            guard let self else { return }
            queue.async { self.installLoaded(generation, result) }
        }
        loading = PendingLoad(generation: generation, songId: entry.id)
        current = (entry, song, payload, song.parts.map(Timeline.init(part:)))
        transportState = .stopped
        settings.loop = nil
        player.setLoop(nil)
        currentSinger = singer
        seatSongSinger(singer)
        practiceRun = false
        if let key = SongQueue.singerKey(singer), let remembered = keyMemory.recall(singer: key, songId: entry.id) {
            settings.key = remembered.key
            settings.tempo = remembered.tempo
            liveSession?.roomSettingsChanged(settings)
        }
        results = []
        totals = [:]
        linePositions = [:]
        logger.info("loading \(songId): \(song.metadata.artist) – \(song.metadata.title)")
        broadcastSong(payload)
    }

    /// A prepared track (or the reason there is none) arrived from the loader. Only the newest
    /// load is installed; anything older is dropped unplayed.
    func installLoaded(_ generation: Int, _ result: Result<PreparedTrack, any Error>) {
        guard let pending = loading, pending.generation == generation, let current else { return }
        loading = nil
        var failure: (any Error)?
        switch result {
        case .success(let track):
            track.install()
            player.setLoop(nil)
            player.setKey(semitones: settings.key)
            player.setTempo(settings.tempo)
            applyVocalReduction()
            for warning in track.warnings {
                logger.warning("\(warning)")
                reportSongProblem(code: "backingWarning", forHosts: warning, forOthers: nil)
            }
            logger.info("loaded \(pending.songId)")
            liveSession?.roomLoaded(current.entry, settings: settings)
            if pending.playWhenLoaded { startPlaying() }
        case .failure(let error):
            failure = error
            logger.error("cannot load \(pending.songId): \(error)")
            self.current = nil
            linePositions = [:]
            reportSongProblem(code: "loadFailed", forHosts: "cannot play \"\(pending.songId)\": \(error)",
                              forOthers: SongProblems.forGuests(title: current.payload.title.isEmpty ? pending.songId : current.payload.title))
            broadcastSong(nil)
        }
        pending.resolve(failure)
        emitLinePositions(force: true)
        broadcastState()
    }

    /// Plays now, or — while the song loads — as soon as it is installed.
    func startPlaying() {
        if loading != nil {
            loading?.playWhenLoaded = true
            return
        }
        player.play()
        transportState = .playing
    }

    /// The player's position; 0 while a song loads (it will start from the top, and the
    /// player still holds the previous track).
    var mediaPosition: Double { loading == nil ? player.position : 0 }

    func seek(to position: Double) {
        player.seek(to: min(max(0, position), current?.payload.duration ?? 0))
        liveSession?.roomSeeked(to: player.position)
        emitLinePositions(force: true)
    }
}
