import EventServer

/// The room's side of phone singer seats (`PhoneSeats` decides who holds which): the seat is a
/// singer in `state.singers` with source "phone", like a PulseAudio microphone's seat.
extension Room {
    func phoneSeatTaken(_ seat: SingerPayload) {
        queue.async { [self] in
            settings.singers.removeAll { $0.singer == seat.singer }
            settings.singers.append(seat)
            settings.singers.sort { $0.singer < $1.singer }
            logger.info("phone singer \(seat.name) took seat \(seat.singer + 1)")
            broadcastState()
        }
    }

    /// `PhoneSeats` hears of every part a `selectSinger` gives a phone seat (host or phone user).
    func onPhonePartChosen(_ listener: @escaping @Sendable (_ singer: Int, _ part: Int) -> Void) {
        queue.async { [self] in phonePartChosen = listener }
    }

    func logPhone(_ message: String) { logger.info("\(message)") }

    func phoneSeatGiven(singer: Int) {
        queue.async { [self] in
            settings.singers.removeAll { $0.singer == singer && $0.source == "phone" }
            if calibratingSinger == singer { logger.warning("phone singer \(singer + 1) left during its calibration") }
            broadcastState()
        }
    }

    func phoneStatusChanged(_ changes: [(name: String, status: String?)]) {
        queue.async { [self] in
            for change in changes where change.status != nil {
                if change.status == "ok" { logger.info("phone singer \(change.name): network ok") }
                else { logger.warning("phone singer \(change.name): network \(change.status!)") }
            }
            broadcastState()
        }
    }

    /// The `calibrate` command's checks and flow for a phone seat, asked by the phone itself:
    /// `done` gets the measured delay (seconds) or the problem, on any thread.
    func calibratePhone(singer: Int, done: @escaping @Sendable (Double?, String?) -> Void) {
        queue.async { [self] in
            guard let liveSession, options.audio else { return done(nil, "calibration needs the room's audio") }
            if transportState == .playing || loading?.playWhenLoaded == true {
                return done(nil, "stop playback before calibrating: the test clicks must be heard alone")
            }
            if let busy = calibratingSinger { return done(nil, "singer \(busy + 1) is being calibrated; try again in a few seconds") }
            logger.info("calibrating the phone of singer \(singer + 1)")
            calibratingSinger = singer
            broadcastState()
            do {
                try liveSession.calibrate(singer: singer) { [weak self] failure in
                    guard let self else { return }
                    queue.async { [self] in
                        calibratingSinger = nil
                        let seat = settings.singers.first { $0.singer == singer }
                        let delay = liveSession.microphone(singer: singer, seat: seat)?.micDelay
                        if let failure {
                            logger.warning("calibration of phone singer \(singer + 1): \(failure)")
                        } else if let delay {
                            logger.info("calibrated the phone of singer \(singer + 1): mic delay \(delay.seconds.stateMilliseconds) ms")
                        }
                        broadcastState()
                        endIntermissionWhenDue()  // a song held by the calibration starts now
                        // A failure to keep the result still measured it (the live session uses it).
                        done(delay?.source == .calibrated ? delay?.seconds : nil, failure.map { "\($0)" })
                    }
                }
            } catch {
                calibratingSinger = nil
                broadcastState()
                done(nil, "\(error)")
            }
        }
    }
}
