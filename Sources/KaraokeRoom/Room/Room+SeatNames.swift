import RoomProtocol

/// Seats carry the names guests chose: the singer of a queued song names the seat that sings it,
/// and a phone taking a seat under a name another seat has gets that name with a suffix
/// ("Ann (2)"). A name is one seat's at a time (see also `checkSeatChange`).
extension Room {
    /// On the room's queue, as a queued song loads: the request's singer sings on the seat named
    /// so (their phone, or a microphone seat they or the host named), else on the first room
    /// microphone nobody holds, which takes their name. The host can reassign it (`selectSinger`).
    func seatSongSinger(_ name: String?) {
        guard let key = SongQueue.singerKey(name), let name = name?.trimmingCharacters(in: .whitespacesAndNewlines) else { return }
        if settings.singers.contains(where: { SongQueue.singerKey($0.name) == key }) { return }
        guard let index = settings.singers.firstIndex(where: { isFreeMicrophoneSeat($0) }) else {
            logger.info("\(name) sings, but every microphone seat is taken: the host can give them one")
            return
        }
        logger.info("\(name) sings on seat \(settings.singers[index].singer + 1) (was \(settings.singers[index].name))")
        settings.singers[index].name = name
    }

    /// A room microphone (not a phone) that no guest took with `selectSinger`: one passed from
    /// hand to hand, named for whoever sings now. Without audio every such seat counts (nothing
    /// is scored; the views show the name).
    func isFreeMicrophoneSeat(_ seat: SingerPayload) -> Bool {
        guard seat.source != "phone", seatHolders[seat.singer] == nil else { return false }
        guard let liveSession else { return true }
        return liveSession.microphone(singer: seat.singer, seat: seat) != nil
    }

    /// The name a phone taking seat `singer` as `name` gets (any thread but the room's queue). A
    /// free room microphone carrying the name (from a queued song, or `serve --singer`) gives it
    /// up between songs: its singer is on the phone now, and the microphone is "Singer n" again.
    /// Otherwise a name another seat has gets the first free suffix: "Ann (2)", "Ann (3)" …
    func phoneSeatName(_ name: String, singer: Int) -> String {
        queue.sync {
            let others = settings.singers.filter { $0.singer != singer }
            guard let holder = others.first(where: { SongQueue.singerKey($0.name) == SongQueue.singerKey(name) }) else { return name }
            if transportState != .playing, isFreeMicrophoneSeat(holder),
               let index = settings.singers.firstIndex(where: { $0.singer == holder.singer }) {
                let fallback = "Singer \(holder.singer + 1)"
                logger.info("\(name) sings on a phone now: seat \(holder.singer + 1) is \(fallback) again")
                settings.singers[index].name = fallback
                liveSession?.roomSettingsChanged(settings)
                broadcastState()
                return name
            }
            let taken = Set(others.compactMap { SongQueue.singerKey($0.name) })
            func suffixed(_ number: Int) -> String {
                let suffix = " (\(number))"
                return String(name.prefix(PhoneSeats.maxNameLength - suffix.count)) + suffix
            }
            var number = 2
            while taken.contains(SongQueue.singerKey(suffixed(number)) ?? "") { number += 1 }
            logger.info("a phone asked for the name \(name), which seat \(holder.singer + 1) has: it sings as \(suffixed(number))")
            return suffixed(number)
        }
    }
}
