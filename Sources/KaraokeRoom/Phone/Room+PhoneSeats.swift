import EventServer
import RoomProtocol

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

    /// The phone that holds a phone seat now (it changes when a dropped phone comes back).
    func phoneSeatHeld(singer: Int, by client: ClientID) {
        queue.async { [self] in seatHolders[singer] = client }
    }

    func phoneSeatGiven(singer: Int) {
        queue.async { [self] in
            seatHolders[singer] = nil
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
            guard liveSession != nil, options.audio else { return done(nil, "calibration needs the room's audio") }
            if transportState == .playing || loading?.playWhenLoaded == true {
                return done(nil, "stop playback before calibrating: the test clicks must be heard alone")
            }
            if let busy = calibratingSinger { return done(nil, "singer \(busy + 1) is being calibrated; try again in a few seconds") }
            logger.info("calibrating the phone of singer \(singer + 1)")
            runPhoneCalibration(singer: singer, done: done)
        }
    }

    /// The automatic re-run of a flagged phone seat's calibration (`AutoRecalibration`, asked by
    /// `PhoneSeats`): only while the room is stopped with no calibration running, checked here on
    /// the room's queue (the window `PhoneSeats` saw may be a tick old). `started` is called once
    /// the clicks began (before `done`); `done` once, with `.notStarted` when they did not (nothing spent), else
    /// the result. A failure goes to the log and the host clients too.
    func recalibratePhone(singer: Int, why: String, started: @escaping @Sendable () -> Void,
                          done: @escaping @Sendable (AutoRecalibration.Outcome, Double?, String?) -> Void) {
        queue.async { [self] in
            guard clicksWindow == .quiet, liveSession != nil, options.audio else { return done(.notStarted, nil, nil) }
            logger.info("re-calibrating the phone of singer \(singer + 1) automatically: \(why)")
            runPhoneCalibration(singer: singer, automatic: true, started: started) { [weak self] delay, error in
                guard let self else { return }
                if let error {
                    let message = "automatic re-calibration of singer \(singer + 1)'s phone failed: \(error); tried again after the next song"
                    logger.warning("\(message)")
                    reportToHosts(code: "phoneRecalibrationFailed", message: message)
                    done(.failed, delay, error)
                } else {
                    logger.info("automatic re-calibration of singer \(singer + 1)'s phone: \(delay.map { "mic delay \($0.stateMilliseconds) ms" } ?? "done")")
                    done(.calibrated, delay, nil)
                }
            }
        }
    }

    /// Where the room is for a phone's clicks (on the room's queue).
    var clicksWindow: AutoRecalibration.Window {
        if transportState == .playing || loading?.playWhenLoaded == true { return .playing }
        if transportState == .paused || calibratingSinger != nil { return .busy }
        return .quiet
    }

    /// Called by the ticker (on the room's queue), for `PhoneSeats` to read on its own.
    func publishRecalibrationWindow() {
        let window = clicksWindow
        recalibrationWindow.withLock { $0 = window }
    }

    /// The room's window for an automatic re-calibration, as of the last tick (any thread).
    var phoneRecalibrationWindow: AutoRecalibration.Window { recalibrationWindow.withLock { $0 } }

    /// On the room's queue: plays the clicks for a phone seat. The wait between songs is held
    /// while `calibratingSinger` is set, so a next song waits for it (and, for an `automatic`
    /// run, a host's `play`).
    private func runPhoneCalibration(singer: Int, automatic: Bool = false, started: (@Sendable () -> Void)? = nil,
                                     done: @escaping @Sendable (Double?, String?) -> Void) {
        guard let liveSession else { return done(nil, "calibration needs the room's audio") }
        calibratingSinger = singer
        automaticCalibration = automatic
        publishRecalibrationWindow()
        broadcastState()
        do {
            try liveSession.calibrate(singer: singer) { [weak self] failure in
                guard let self else { return }
                queue.async { [self] in
                    calibratingSinger = nil
                    automaticCalibration = false
                    let seat = settings.singers.first { $0.singer == singer }
                    let delay = liveSession.microphone(singer: singer, seat: seat)?.micDelay
                    if let failure {
                        logger.warning("calibration of phone singer \(singer + 1): \(failure)")
                    } else if let delay {
                        logger.info("calibrated the phone of singer \(singer + 1): mic delay \(delay.seconds.stateMilliseconds) ms")
                    }
                    publishRecalibrationWindow()
                    broadcastState()
                    endIntermissionWhenDue()  // a song held by the calibration starts now
                    // A failure to keep the result still measured it (the live session uses it).
                    done(delay?.source == .calibrated ? delay?.seconds : nil, failure.map { "\($0)" })
                }
            }
            started?()  // the clicks play now (`done` comes later, on this queue)
        } catch {
            calibratingSinger = nil
            automaticCalibration = false
            publishRecalibrationWindow()
            broadcastState()
            done(nil, "\(error)")
        }
    }
}
